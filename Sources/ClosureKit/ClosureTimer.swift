/// A timer that runs a closure, one-shot or repeating, with no run loop.
///
/// ```swift
/// let timer = ClosureTimer.schedule(every: .seconds(1)) { timer in
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
/// Bad arguments are programmer errors: a negative interval or tolerance, a zero interval for a
/// repeating timer, or a `repeatCount` below 1 stops the program with a message that names the
/// argument, in release builds too.
public final class ClosureTimer: @unchecked Sendable {
  // @unchecked Sendable: every `var` below is read and written only under `scheduler.state`'s lock.

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

  /// The heap and clock this timer runs on; its lock guards every `var` of the timer.
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

  package init(
    scheduler: TimerScheduler,
    period: Duration,
    isRepeating: Bool,
    tolerance: Duration,
    repeatCount: Int?,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (ClosureTimer) -> Void
  ) {
    let function = isRepeating ? "ClosureTimer(every:)" : "ClosureTimer(after:)"
    let argument = isRepeating ? "interval" : "delay"
    if period < .zero {
      failPrecondition("\(function): the argument `\(argument)` must not be negative, got \(period)")
    }
    if isRepeating && period <= .zero {
      failPrecondition("\(function): the argument `interval` must be greater than zero for a repeating timer")
    }
    if tolerance < .zero {
      failPrecondition("\(function): the argument `tolerance` must not be negative, got \(tolerance)")
    }
    if let repeatCount {
      if repeatCount < 1 {
        failPrecondition("\(function): the argument `repeatCount` must be at least 1, got \(repeatCount)")
      }
    }
    self.scheduler = scheduler
    self.period = period
    self.isRepeating = isRepeating
    self.tolerance = tolerance
    self.callLimit = isRepeating ? repeatCount : 1
    self.delivery = delivery
    self.isOwnerBound = owner != nil
    self.owner = owner
    self.handler = handler
  }

  /// When a timer's calls fall due, as the public initialisers spell it.
  enum Cadence {
    /// One call, `delay` after the start.
    case once(after: Duration)
    /// A call every `interval`, up to `repeatCount` calls (`nil`: no limit).
    case repeating(every: Duration, tolerance: Duration, repeatCount: Int?)
  }

  /// Creates a stopped timer on `scheduler`: the one body behind every public initialiser, with
  /// `owner` (held weakly) for the owner variants and `nil` for the others.
  convenience init(
    _ cadence: Cadence,
    scheduler: TimerScheduler,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) {
    let (period, isRepeating, tolerance, repeatCount): (Duration, Bool, Duration, Int?) =
      switch cadence {
      case .once(let delay): (delay, false, .zero, 1)
      case .repeating(let interval, let tolerance, let repeatCount): (interval, true, tolerance, repeatCount)
      }
    self.init(
      scheduler: scheduler,
      period: period,
      isRepeating: isRepeating,
      tolerance: tolerance,
      repeatCount: repeatCount,
      delivery: delivery,
      owner: owner,
      handler: handler
    )
  }

  /// Creates a stopped one-shot timer; ``start()`` schedules it `delay` after the moment it is
  /// called.
  ///
  /// ```swift
  /// let timeout = ClosureTimer(after: .seconds(30)) { _ in print("timed out") }
  /// timeout.start()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time from ``start()`` to the call; zero or more.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer.
  ///
  /// > Important: Nothing runs until ``start()``. A timer that is never started is released like
  /// > any object; ``fire()`` works on it.
  public convenience init(
    after delay: Duration,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) {
    let cadence = Cadence.once(after: delay)
    self.init(cadence, scheduler: .scheduler(for: clock), delivery: delivery, owner: nil, handler)
  }

  /// Creates a stopped repeating timer; ``start()`` schedules its first tick one `interval` after
  /// the moment it is called.
  ///
  /// ```swift
  /// let poll = ClosureTimer(every: .seconds(5), repeatCount: 10) { _ in refresh() }
  /// poll.start()
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - tolerance: How late a tick may run so that wake-ups can be shared; it never shifts later
  ///     ticks. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer.
  ///
  /// > Important: Nothing runs until ``start()``.
  public convenience init(
    every interval: Duration,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) {
    let cadence = Cadence.repeating(every: interval, tolerance: tolerance, repeatCount: repeatCount)
    self.init(cadence, scheduler: .scheduler(for: clock), delivery: delivery, owner: nil, handler)
  }

  /// Schedules a one-shot timer: the handler runs once, `delay` from now, then the timer is invalid.
  ///
  /// ```swift
  /// ClosureTimer.schedule(after: .milliseconds(300)) { _ in print("debounced") }
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time until the call; zero or more.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer.
  /// - Returns: The running timer. Dropping it does not stop it; keep it to invalidate it.
  ///
  /// > Important: With ``Delivery/immediate`` the handler runs on the scheduler's thread (for a
  /// > `ManualClock`, inside `advance`). The timer is valid while its handler runs and invalid
  /// > after it returns.
  @discardableResult
  public static func schedule(
    after delay: Duration,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    ClosureTimer(after: delay, on: delivery, clock: clock, handler).started()
  }

  /// Schedules a repeating timer: the handler runs every `interval`, with no drift, until the timer
  /// is invalidated or has made `repeatCount` calls.
  ///
  /// ```swift
  /// ClosureTimer.schedule(every: .seconds(1), repeatCount: 3) { timer in
  ///   print("tick", timer.fireCount)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - tolerance: How late a tick may run so that wake-ups can be shared. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer; ``skippedTickCount`` tells how many ticks this call stands
  ///     for beyond one.
  /// - Returns: The running timer. Dropping it does not stop it; keep it to invalidate it.
  ///
  /// > Important: With ``Delivery/immediate`` the handler runs on the scheduler's thread, outside
  /// > any lock; it may invalidate, pause or fire this timer and schedule others.
  @discardableResult
  public static func schedule(
    every interval: Duration,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    ClosureTimer(every: interval, tolerance: tolerance, repeatCount: repeatCount, on: delivery, clock: clock, handler)
      .started()
  }

  // MARK: State

  /// Whether the timer is paused.
  ///
  /// ```swift
  /// if timer.isPaused { timer.resume() }
  /// ```
  public var isPaused: Bool {
    scheduler.state.withLock { _ in
      if case .paused = phase { return true }
      return false
    }
  }

  /// The number of calls of the handler that have started, the current one included.
  ///
  /// ```swift
  /// ClosureTimer.schedule(every: .seconds(1)) { timer in print("call", timer.fireCount) }
  /// ```
  public var fireCount: Int {
    scheduler.state.withLock { _ in startedCalls }
  }

  /// The number of ticks coalesced into the latest call beyond the one it stands for: 0 when the
  /// call is on time, 2 when two earlier ticks were missed.
  ///
  /// ```swift
  /// ClosureTimer.schedule(every: .seconds(1)) { timer in
  ///   print("this call stands for", 1 + timer.skippedTickCount, "ticks")
  /// }
  /// ```
  ///
  /// > Important: Set just before each call starts, so the handler reads its own call's count.
  /// > With a delivery that runs calls of one timer concurrently, read it at the top of the handler.
  public var skippedTickCount: Int {
    scheduler.state.withLock { _ in skippedTicks }
  }

  /// The instant of the timer's clock at which the next tick is due; `nil` unless scheduled.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let timer = ClosureTimer.schedule(every: .seconds(1), clock: clock) { _ in }
  /// #expect(timer.nextDeadline as? ManualClock.Instant == clock.now + .seconds(1))
  /// ```
  ///
  /// Cast it to the clock's `Instant` type (`ContinuousClock.Instant` by default).
  public var nextDeadline: (any InstantProtocol<Duration>)? {
    scheduler.state.withLock { _ in
      phase == .scheduled ? scheduler.driver.instant(at: deadline) : nil
    }
  }

  // MARK: Internal

  /// Starts the timer and returns it: the tail of every `schedule`.
  func started() -> ClosureTimer {
    start()
    return self
  }

  /// Whether the timer is owner-bound and its owner is gone.
  ///
  /// > Important: Not under the scheduler's lock: the weak load holds the owner for a moment, and
  /// > if another thread drops its last reference meanwhile, the owner's deinit runs here.
  var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }

  /// Marks the timer invalid and returns its handler, to be released after the lock is dropped.
  /// Under the lock; the timer is already out of the heap.
  func end() -> (@Sendable (ClosureTimer) -> Void)? {
    phase = .invalid
    defer { handler = nil }
    return handler
  }

  /// Handles a due tick at `now`: coalesces missed ticks, reschedules or finishes the timer, and
  /// returns the call. Under the lock; the timer has just been popped from the heap.
  func tick(at now: Duration, state: inout TimerScheduler.State) -> TimerScheduler.DueCall {
    var skipped = 0
    if isRepeating {
      let next = deadline + period
      if now < next {
        // On time (the common case): no division needed.
        nextTick += 1
        deadline = next
      } else {
        let due = Int64((now - anchor).attoseconds / period.attoseconds)
        skipped = Int(due - nextTick)
        nextTick = due + 1
        deadline = Duration(attoseconds: anchor.attoseconds + period.attoseconds * Int128(nextTick))
      }
    }
    committedCalls += 1
    let isFinal = !isRepeating || callLimit.map { committedCalls >= $0 } ?? false
    if isFinal {
      phase = .finishing
    } else {
      scheduler.insert(self, state: &state)
    }
    if delivery.isImmediate, let handler {
      startedCalls += 1
      skippedTicks = skipped
      return .immediate(self, handler, isFinal: isFinal)
    }
    return .deferred(self, makeCall(skipped: skipped, isFinal: isFinal))
  }

  /// One call of the handler: checks at its start that the timer is still valid.
  func makeCall(skipped: Int, isFinal: Bool) -> @Sendable () -> Void {
    { [self] in
      let body = scheduler.state.withLock { _ -> (@Sendable (ClosureTimer) -> Void)? in
        guard phase != .invalid, let handler = self.handler else { return nil }
        startedCalls += 1
        skippedTicks = skipped
        return handler
      }
      guard let body else { return }
      body(self)
      if isFinal { invalidate() }
    }
  }
}
