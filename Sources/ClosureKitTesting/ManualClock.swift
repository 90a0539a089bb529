package import ClosureKit
import Synchronization

/// A clock that moves only when a test advances it, so timer tests never wait.
///
/// ```swift
/// let clock = ManualClock()
/// let ticks = Counter()
/// ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { _ in ticks.increment() }
/// clock.advance(by: .seconds(1))   // the tick has run when this returns
/// #expect(ticks.value == 1)
/// ```
///
/// Copies of a `ManualClock` share one time: advancing one advances all. Each clock created with
/// ``init()`` has its own time and its own timer scheduler.
///
/// > Important: ``advance(by:)`` and ``advance(to:)`` are synchronous: the clock jumps to the
/// > target, then every timer that fell due fires in deadline order, on the advancing thread, each
/// > timer once with its missed ticks coalesced, and handlers with `Delivery.immediate` have
/// > returned when the call returns. Tasks sleeping on the clock are resumed after that.
public struct ManualClock: Clock, Sendable {
  /// A point in a ``ManualClock``'s time: the time since the clock was created.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let deadline = clock.now + .seconds(5)
  /// ```
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// The time since the clock was created.
    public var offset: Duration

    /// Creates the instant `offset` after the clock's creation.
    ///
    /// ```swift
    /// let fiveSeconds = ManualClock.Instant(offset: .seconds(5))
    /// ```
    ///
    /// - Parameter offset: The time since the clock was created.
    public init(offset: Duration) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    public static func + (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: rhs)
    }

    public static func - (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: .zero - rhs)
    }

    public static func - (lhs: Instant, rhs: Instant) -> Duration {
      rhs.duration(to: lhs)
    }

    public var description: String {
      "ManualClock.Instant(\(offset))"
    }
  }

  /// The shared time of a clock and its copies.
  final class Storage: Sendable {
    struct State {
      var now = Duration.zero
      var nextSleeper = 0
      var sleepers: [Int: (deadline: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
    }

    /// Behind ClosureKit's `Locked` (a `pthread_mutex_t` on Linux), not `Synchronization.Mutex`:
    /// ThreadSanitizer does not see `Mutex`'s contended futex path as synchronisation, and the soak
    /// (several threads advancing one clock) drew false data-race reports from it.
    let state = Locked(State())
  }

  /// The driver of this clock's scheduler: reads the manual time, never arms anything.
  struct Driver: TimerDriver {
    let storage: Storage

    func now() -> Duration {
      storage.state.withLock { $0.now }
    }

    func instant(at offset: Duration) -> any InstantProtocol<Duration> {
      Instant(offset: offset)
    }

    func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler) {}
  }

  let storage: Storage
  let scheduler: TimerScheduler

  /// Creates a clock whose time starts at zero.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// ```
  public init() {
    storage = Storage()
    scheduler = TimerScheduler(driver: Driver(storage: storage))
  }

  /// The current time.
  ///
  /// ```swift
  /// let start = clock.now
  /// ```
  public var now: Instant {
    Instant(offset: storage.state.withLock { $0.now })
  }

  /// The smallest step the clock can take: one nanosecond's worth is not needed, any `Duration`
  /// works, so this is zero.
  public var minimumResolution: Duration {
    .zero
  }

  /// Suspends until the clock is advanced to `deadline` or past it.
  ///
  /// ```swift
  /// try await clock.sleep(until: clock.now + .seconds(1))
  /// ```
  ///
  /// - Parameters:
  ///   - deadline: The instant to wait for.
  ///   - tolerance: Ignored.
  ///
  /// > Important: Returns at once when `deadline` is not in the future. Throws `CancellationError`
  /// > when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let slot = Mutex<Int?>(nil)
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let registered = storage.state.withLock { state -> Bool? in
          if Task.isCancelled { return nil }
          guard deadline.offset > state.now else { return false }
          state.nextSleeper += 1
          state.sleepers[state.nextSleeper] = (deadline.offset, continuation)
          slot.withLock { $0 = state.nextSleeper }
          return true
        }
        switch registered {
        case nil: continuation.resume(throwing: CancellationError())
        case false?: continuation.resume()
        case true?: break
        }
      }
    } onCancel: {
      let cancelled = storage.state.withLock { state in
        slot.withLock { $0 }.flatMap { state.sleepers.removeValue(forKey: $0) }
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration` and fires every timer that falls due.
  ///
  /// ```swift
  /// clock.advance(by: .milliseconds(250))
  /// ```
  ///
  /// - Parameter duration: How far to move; zero or more.
  ///
  /// > Important: Synchronous: see ``ManualClock``. Crossing several intervals of a repeating timer
  /// > makes one call whose `ClosureTimer.skippedTickCount` counts the others.
  public func advance(by duration: Duration) {
    if duration < .zero {
      failPrecondition("ManualClock.advance(by:): the argument `duration` must not be negative, got \(duration)")
    }
    // Moved in the same critical section as it is read, so that advances from several threads add
    // up (each read `now`, then moved to its own sum, and one was lost).
    let target = storage.state.withLock { state in
      state.now += duration
      return state.now
    }
    move(to: target)
  }

  /// Moves the clock forward to `deadline` and fires every timer that falls due.
  ///
  /// ```swift
  /// clock.advance(to: clock.now + .seconds(10))
  /// ```
  ///
  /// - Parameter deadline: The new time; not earlier than ``now``.
  ///
  /// > Important: Synchronous: see ``ManualClock``.
  public func advance(to deadline: Instant) {
    if deadline < now {
      failPrecondition("ManualClock.advance(to:): the argument `deadline` \(deadline) is earlier than now, \(now)")
    }
    move(to: deadline.offset)
  }

  /// Sets the time (never backwards), fires due timers, then resumes due sleepers.
  private func move(to target: Duration) {
    storage.state.withLock { state in
      state.now = max(state.now, target)
    }
    scheduler.fireDue()
    let woken = storage.state.withLock { state in
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for key in due.keys { state.sleepers.removeValue(forKey: key) }
      return due.sorted { $0.value.deadline < $1.value.deadline }.map(\.value.continuation)
    }
    for continuation in woken { continuation.resume() }
  }
}

extension ManualClock: TimerSchedulerProviding {
  package var timerScheduler: TimerScheduler {
    scheduler
  }
}
