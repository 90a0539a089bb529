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

/// A driver that reads a `Clock` as offsets from the instant it was made: the time-keeping half
/// every clock-backed driver shares; each driver adds only how it wakes up (`arm`).
protocol ClockTimerDriver: TimerDriver {
  associatedtype DriverClock: Clock where DriverClock.Duration == Duration
  /// The clock the timers run on.
  var clock: DriverClock { get }
  /// The clock's instant at offset zero, fixed when the driver is made.
  var origin: DriverClock.Instant { get }
}

extension ClockTimerDriver {
  func now() -> Duration {
    origin.duration(to: clock.now)
  }

  func instant(at offset: Duration) -> any InstantProtocol<Duration> {
    origin.advanced(by: offset)
  }
}

/// Wakes a scheduler on a clock ClosureKit does not know, with `clock.sleep(until:)` in a task that
/// is replaced whenever the earliest deadline changes. One such scheduler per timer.
///
/// `@unchecked Sendable`: `task` is read and written under the scheduler's lock only.
final class TaskTimerDriver<C: Clock>: ClockTimerDriver, @unchecked Sendable where C.Duration == Duration {
  let clock: C
  let origin: C.Instant
  /// The sleeping task; read and written under the scheduler's lock only.
  var task: Task<Void, Never>?

  init(clock: C) {
    self.clock = clock
    origin = clock.now
  }

  func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler) {
    task?.cancel()
    task = nil
    guard let deadline else { return }
    let wake = origin.advanced(by: deadline)
    task = Task { [clock] in
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
