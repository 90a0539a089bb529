extension TimerScheduler {
  /// The scheduler shared by every timer on `ContinuousClock`.
  static let continuous = TimerScheduler(driver: ThreadTimerDriver(clock: ContinuousClock()))
  /// The scheduler shared by every timer on `SuspendingClock`.
  static let suspending = TimerScheduler(driver: ThreadTimerDriver(clock: SuspendingClock()))

  /// The scheduler for timers on `clock`: the clock's own (`ManualClock`), a shared one for the
  /// standard clocks, or a new task-driven one for any other clock.
  static func scheduler<C: Clock>(for clock: C) -> TimerScheduler where C.Duration == Duration {
    if let provider = clock as? any TimerSchedulerProviding { return provider.timerScheduler }
    if C.self == ContinuousClock.self { return .continuous }
    if C.self == SuspendingClock.self { return .suspending }
    return TimerScheduler(driver: TaskTimerDriver(clock: clock))
  }
}

/// The core every clock-backed driver shares: reads `clock` as offsets from the instant the driver
/// was made. Each subclass adds only how it wakes up, by overriding ``arm(at:leeway:for:)``.
///
/// A class rather than a protocol with default methods: the scheduler calls ``now()`` on every
/// wake-up, and a default method reached through a generic conformance is not specialised (it
/// would look up a witness table at each call).
///
/// `@unchecked Sendable`: `clock` and `origin` are immutable; each subclass says what guards its
/// own state.
class ClockTimerDriver<C: Clock>: TimerDriver, @unchecked Sendable where C.Duration == Duration {
  /// The clock the timers run on.
  let clock: C
  /// The clock's instant at offset zero, fixed when the driver is made.
  let origin: C.Instant

  init(clock: C) {
    self.clock = clock
    origin = clock.now
  }

  final func now() -> Duration {
    origin.duration(to: clock.now)
  }

  final func instant(at offset: Duration) -> any InstantProtocol<Duration> {
    origin.advanced(by: offset)
  }

  /// Overridden by every subclass with its way of waking the scheduler.
  func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler) {
    failPrecondition("ClockTimerDriver.arm(at:leeway:for:) must be overridden")
  }
}

/// Wakes a scheduler on a clock ClosureKit does not know, with `clock.sleep(until:)` in a task that
/// is replaced whenever the earliest deadline changes. One such scheduler per timer.
///
/// `@unchecked Sendable`: `task` is a lock.
final class TaskTimerDriver<C: Clock>: ClockTimerDriver<C>, @unchecked Sendable where C.Duration == Duration {
  /// The sleeping task.
  let task = Locked<Task<Void, Never>?>(nil)

  override func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler) {
    let replacement = deadline.map { makeTask(waking: scheduler, at: $0, leeway: leeway) }
    let previous = task.withLock { task in
      defer { task = replacement }
      return task
    }
    previous?.cancel()  // after the lock: cancelling runs the clock's cancellation handler
  }

  /// A task that sleeps until `deadline`, then fires the scheduler's due timers.
  private func makeTask(waking scheduler: TimerScheduler, at deadline: Duration, leeway: Duration) -> Task<Void, Never>
  {
    let wake = origin.advanced(by: deadline)
    return Task { [clock] in
      do {
        try await clock.sleep(until: wake, tolerance: leeway == .zero ? nil : leeway)
      } catch {
        return
      }
      scheduler.fireDue()
    }
  }
}

extension Duration {
  /// Whole nanoseconds, clamped to `Int`.
  var nanoseconds: Int {
    let value = attoseconds / 1_000_000_000
    if value > Int128(Int.max) { return Int.max }
    if value < Int128(Int.min) { return Int.min }
    return Int(value)
  }
}
