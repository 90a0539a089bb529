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
  // @unchecked Sendable: every stored property is a `let` of a `Sendable` type (`owner` a weak
  // `let`, loaded atomically). The timer's mutable state is its record in `scheduler`'s
  // `TimerSchedulerState`, reached by `id` and changed only by that state's transitions.

  /// The heap and clock this timer runs on; its state holds this timer's record.
  let scheduler: TimerScheduler
  /// The index of this timer's record in the scheduler's state.
  let id: Int
  /// Where the handler runs.
  let delivery: Delivery
  /// Whether the timer was made with an owner.
  let isOwnerBound: Bool
  /// The owner of an owner-bound timer, held weakly.
  weak let owner: (any AnyObject & Sendable)?

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
    let config = TimerSchedulerState.Config(
      period: cadence.period, isRepeating: cadence.isRepeating, tolerance: cadence.tolerance,
      callLimit: cadence.callLimit, isImmediate: delivery.isImmediate)
    self.scheduler = scheduler
    self.id = scheduler.withState { $0.register(config, handler: handler) }
    self.delivery = delivery
    self.isOwnerBound = owner != nil
    self.owner = owner
  }

  deinit {
    // Never under the scheduler's lock: the state returns every reference to a timer it drops.
    let handler = scheduler.withState { $0.unregister(id) }
    withExtendedLifetime(handler) {}  // released after the lock
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
    scheduler.withState { state in
      if case .paused = state.records[id]!.phase { return true }
      return false
    }
  }

  /// The number of calls of the handler that have started, the current one included.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.every(.seconds(1))) { timer in print("call", timer.fireCount) }
  /// ```
  public var fireCount: Int {
    scheduler.withState { $0.records[id]!.startedCalls }
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
    scheduler.withState { $0.records[id]!.skippedTicks }
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
    let deadline = scheduler.withState { state in
      state.records[id]!.phase == .scheduled ? state.records[id]!.deadline : nil
    }
    return deadline.map { scheduler.driver.instant(at: $0) }
  }
}
