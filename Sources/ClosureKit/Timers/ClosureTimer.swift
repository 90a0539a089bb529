/// A timer that runs a closure, one-shot or repeating, with no run loop.
///
/// ```swift
/// let timer = ClosureTimer.schedule(.every(.seconds(1))) { timer in
///   print("tick", timer.fireCount)
///   if timer.fireCount == 3 { timer.invalidate() }
/// }
/// ```
///
/// Tick *n* of a repeating timer is due at start + *n* × interval, however long the handler takes,
/// so the timer never drifts. Ticks that were missed (a long handler, a stalled process, a
/// `ManualClock` advanced across several intervals) are coalesced into one call, and the handler
/// reads how many were skipped in ``skippedTickCount``.
///
/// A scheduled timer keeps running, even with no reference left to it, until it is invalidated,
/// has made its last call (a one-shot timer, a `repeatCount`), or, for a timer made with `owner:`,
/// its owner is deallocated.
///
/// Every timer takes a `clock:`; tests pass a `ManualClock` and advance it instead of waiting.
/// On `ContinuousClock` (the default) and `SuspendingClock`, all timers of the clock share one
/// scheduler thread that sleeps until the earliest deadline: no thread per timer, and no thread
/// busy while none is due.
///
/// > Important: Every method is safe from any thread, also from inside the handler. With
/// > ``Delivery/immediate`` the handler runs on the scheduler's thread (for a `ManualClock`, the
/// > thread that advances it), outside any lock, one due timer after another, so a slow handler
/// > delays the clock's other timers; move slow work elsewhere with `on: .queue(_:)`. After
/// > ``invalidate()`` returns, no call of the handler starts, including calls already queued on
/// > another delivery.
///
/// When the calls fall due is a ``TimerCadence``; every way to make a timer takes it first, then
/// `owner:`, then `on:`, then `clock:`, then the closure. UI code uses the main-actor view,
/// ``onMainActor``, whose closures are `@MainActor`.
///
/// Bad arguments are programmer errors: a negative interval or tolerance, a zero interval for a
/// repeating timer, or a `repeatCount` below 1 stops the program with a message that names the
/// argument, in release builds too.
public final class ClosureTimer: @unchecked Sendable {
  // @unchecked Sendable: the `let`s are immutable and `Sendable`; every `var` below is read and
  // written only under the lock of `scheduler` (another object's lock: a timer's state and its
  // place in the scheduler's heap change together), taken through `TimerScheduler.withLock`. The
  // transitions that rely on it (`end()`, `tick(at:state:)`, the heap's insert and remove) check
  // it in debug builds with `TimerScheduler.assertLocked()`.

  /// Where the timer is in its life.
  enum Phase: Equatable {
    /// Created with `init`, not started yet.
    case idle
    /// In the scheduler's heap, waiting for `deadline`.
    case scheduled
    /// Paused at the given clock offset; out of the heap.
    case paused(at: Duration)
    /// Its last call is on its way to the handler; out of the heap.
    case finishing
    /// Invalidated: no call starts any more.
    case invalid
  }

  /// The heap and clock this timer runs on; its lock guards every `var` of the timer (see above).
  let scheduler: TimerScheduler
  /// The repeat interval, or the delay of a one-shot timer.
  let period: Duration
  /// Whether the timer repeats.
  let isRepeating: Bool
  /// How late the scheduler may wake up for this timer, to save wake-ups.
  let tolerance: Duration
  /// The number of calls after which the timer ends; `nil`: no limit.
  let callLimit: Int?
  /// Where the handler runs.
  let delivery: Delivery
  /// Whether the timer was made with an owner.
  let isOwnerBound: Bool
  /// The owner of an owner-bound timer, held weakly.
  weak let owner: (any AnyObject & Sendable)?

  /// The handler; `nil` once the timer is invalid, so what it captured is released.
  var handler: (@Sendable (ClosureTimer) -> Void)?
  var phase = Phase.idle
  /// Tick *n* is due at `anchor + n * period`: the start, moved by the time spent paused.
  var anchor = Duration.zero
  /// The index of the next tick.
  var nextTick: Int64 = 1
  /// The deadline of the next tick while scheduled.
  var deadline = Duration.zero
  /// The position in the scheduler's heap; -1 when not in it.
  var heapIndex = -1
  /// Calls committed so far (scheduled ticks and `fire()`), counted against `callLimit`.
  var committedCalls = 0
  /// Calls that have started.
  var startedCalls = 0
  /// Ticks coalesced into the call that started last.
  var skippedTicks = 0

  /// Creates a stopped timer on `scheduler`: the one body behind every public initialiser, with
  /// `owner` (held weakly) for the owner variants and `nil` for the others. Checks `cadence`.
  package init(
    _ cadence: TimerCadence,
    scheduler: TimerScheduler,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) {
    cadence.validate()
    self.scheduler = scheduler
    self.period = cadence.period
    self.isRepeating = cadence.isRepeating
    self.tolerance = cadence.tolerance
    self.callLimit = cadence.callLimit
    self.delivery = delivery
    self.isOwnerBound = owner != nil
    self.owner = owner
    self.handler = handler
  }

  /// Creates a stopped timer; ``start()`` schedules its first call one delay or interval after the
  /// moment it is called.
  ///
  /// ```swift
  /// let timeout = ClosureTimer(.after(.seconds(30))) { _ in print("timed out") }
  /// timeout.start()
  /// let poll = ClosureTimer(.every(.seconds(5), repeatCount: 10), on: .queue(queue)) { _ in refresh() }
  /// poll.start()
  /// ```
  ///
  /// - Parameters:
  ///   - cadence: ``TimerCadence/after(_:)`` for one call, ``TimerCadence/every(_:tolerance:repeatCount:)``
  ///     for a beat.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer.
  ///
  /// > Important: Nothing runs until ``start()``. A timer that is never started is released like
  /// > any object; ``fire()`` works on it. For a `@MainActor` handler use
  /// > ``ClosureTimer/onMainActor``.
  public convenience init(
    _ cadence: TimerCadence,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) {
    self.init(cadence, scheduler: .scheduler(for: clock), delivery: delivery, owner: nil, handler)
  }

  /// Creates a stopped timer bound to `owner`; ``start()`` schedules it.
  ///
  /// ```swift
  /// let timeout = ClosureTimer(.after(.seconds(30)), owner: self) { owner, _ in owner.giveUp() }
  /// timeout.start()
  /// ```
  ///
  /// - Parameters:
  ///   - cadence: When the calls fall due.
  ///   - owner: Held weakly; the timer stops when it is deallocated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner, strong, and the timer.
  ///
  /// > Important: Nothing runs until ``start()``. Once the owner is gone the handler never runs,
  /// > and the timer is invalid.
  public convenience init<Owner: AnyObject & Sendable>(
    _ cadence: TimerCadence, owner: Owner,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) {
    self.init(cadence, scheduler: .scheduler(for: clock), delivery: delivery, owner: owner, Self.bind(owner, handler))
  }

  /// Schedules a timer: the handler runs once after ``TimerCadence/after(_:)``, or on every tick
  /// of ``TimerCadence/every(_:tolerance:repeatCount:)`` until the timer is invalidated or has
  /// made `repeatCount` calls.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.after(.milliseconds(300))) { _ in print("debounced") }
  /// ClosureTimer.schedule(.every(.seconds(1), repeatCount: 3)) { timer in
  ///   print("tick", timer.fireCount)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - cadence: When the calls fall due.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`; tests pass
  ///     a `ManualClock`.
  ///   - handler: Receives the timer; ``skippedTickCount`` tells how many ticks this call stands
  ///     for beyond one.
  /// - Returns: The running timer. Dropping it does not stop it; keep it to invalidate it.
  ///
  /// > Important: With ``Delivery/immediate`` the handler runs on the scheduler's thread (for a
  /// > `ManualClock`, inside `advance`), outside any lock; it may invalidate, pause or fire this
  /// > timer and schedule others. A one-shot timer is valid while its handler runs and invalid
  /// > after it returns. For a `@MainActor` handler use ``ClosureTimer/onMainActor``.
  ///
  /// If the compiler rejects the handler, see <doc:CommonCompilerErrors>.
  @discardableResult
  public static func schedule(
    _ cadence: TimerCadence,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    ClosureTimer(cadence, on: delivery, clock: clock, handler).started()
  }

  /// Schedules a timer bound to `owner`: it runs until invalidated, until its cadence ends, or
  /// until the owner is deallocated.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.every(.seconds(1)), owner: self) { owner, timer in
  ///   owner.updateClock()
  /// }
  /// ClosureTimer.schedule(.after(.seconds(2)), owner: self) { owner, _ in owner.hideToast() }
  /// ```
  ///
  /// - Parameters:
  ///   - cadence: When the calls fall due.
  ///   - owner: Held weakly, and passed to the handler strong: no `[weak self]` needed.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner, strong, and the timer.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: The timer does not keep the owner alive. Once the owner is gone the handler never
  /// > runs again and ``ClosureTimer/isValid`` is `false`; the scheduler drops the timer and its
  /// > captures at its next deadline. Threading as in ``schedule(_:on:clock:_:)``.
  ///
  /// If the compiler rejects the handler, see <doc:CommonCompilerErrors>.
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    _ cadence: TimerCadence, owner: Owner,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    ClosureTimer(cadence, owner: owner, on: delivery, clock: clock, handler).started()
  }

  // MARK: State

  /// Whether the timer is paused.
  ///
  /// ```swift
  /// if timer.isPaused { timer.resume() }
  /// ```
  public var isPaused: Bool {
    scheduler.withLock { _ in
      if case .paused = phase { return true }
      return false
    }
  }

  /// The number of calls of the handler that have started, the current one included.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.every(.seconds(1))) { timer in print("call", timer.fireCount) }
  /// ```
  public var fireCount: Int {
    scheduler.withLock { _ in startedCalls }
  }

  /// The number of ticks coalesced into the latest call beyond the one it stands for: 0 when the
  /// call is on time, 2 when two earlier ticks were missed.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.every(.seconds(1))) { timer in
  ///   print("this call stands for", 1 + timer.skippedTickCount, "ticks")
  /// }
  /// ```
  ///
  /// > Important: Set just before each call starts, so the handler reads its own call's count.
  /// > With a delivery that runs calls of one timer concurrently, read it at the top of the handler.
  public var skippedTickCount: Int {
    scheduler.withLock { _ in skippedTicks }
  }

  /// The instant of the timer's clock at which the next tick is due; `nil` unless scheduled.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { _ in }
  /// #expect(timer.nextDeadline as? ManualClock.Instant == clock.now + .seconds(1))
  /// ```
  ///
  /// Cast it to the clock's `Instant` type (`ContinuousClock.Instant` by default).
  public var nextDeadline: (any InstantProtocol<Duration>)? {
    scheduler.withLock { _ in
      phase == .scheduled ? scheduler.driver.instant(at: deadline) : nil
    }
  }
}
