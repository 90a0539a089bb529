extension ClosureTimer {
  /// Binds `handler` to `owner`, held weakly: the bound handler invalidates the timer instead of
  /// running once the owner is gone.
  static func bind<Owner: AnyObject & Sendable>(
    _ owner: Owner,
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> @Sendable (ClosureTimer) -> Void {
    { [weak owner] timer in
      guard let owner else {
        timer.invalidate()
        return
      }
      handler(owner, timer)
    }
  }

  /// Creates a stopped one-shot timer bound to `owner`; ``start()`` schedules it.
  ///
  /// ```swift
  /// let timeout = ClosureTimer(after: .seconds(30), owner: self) { owner, _ in owner.giveUp() }
  /// timeout.start()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time from ``start()`` to the call; zero or more.
  ///   - owner: Held weakly; the timer stops when it is deallocated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner, strong, and the timer.
  ///
  /// > Important: Once the owner is gone the handler never runs, and the timer is invalid.
  public convenience init<Owner: AnyObject & Sendable>(
    after delay: Duration,
    owner: Owner,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) {
    let cadence = Cadence.once(after: delay)
    self.init(cadence, scheduler: .scheduler(for: clock), delivery: delivery, owner: owner, Self.bind(owner, handler))
  }

  /// Creates a stopped repeating timer bound to `owner`; ``start()`` schedules it.
  ///
  /// ```swift
  /// let poll = ClosureTimer(every: .seconds(5), owner: self) { owner, _ in owner.refresh() }
  /// poll.start()
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - owner: Held weakly; the timer stops when it is deallocated.
  ///   - tolerance: How late a tick may run so that wake-ups can be shared. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner, strong, and the timer.
  ///
  /// > Important: Once the owner is gone the handler never runs, and the timer is invalid.
  public convenience init<Owner: AnyObject & Sendable>(
    every interval: Duration,
    owner: Owner,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) {
    let cadence = Cadence.repeating(every: interval, tolerance: tolerance, repeatCount: repeatCount)
    self.init(cadence, scheduler: .scheduler(for: clock), delivery: delivery, owner: owner, Self.bind(owner, handler))
  }

  /// Schedules a one-shot timer bound to `owner`: it runs once, `delay` from now, if the owner is
  /// still alive then.
  ///
  /// ```swift
  /// ClosureTimer.schedule(after: .seconds(2), owner: self) { owner, _ in owner.hideToast() }
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time until the call; zero or more.
  ///   - owner: Held weakly; the timer stops when it is deallocated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner, strong, and the timer.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: The timer does not keep the owner alive. Once the owner is gone the handler never
  /// > runs; the scheduler drops the timer and its captures at its deadline at the latest.
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    after delay: Duration,
    owner: Owner,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    ClosureTimer(after: delay, owner: owner, on: delivery, clock: clock, handler).started()
  }

  /// Schedules a repeating timer bound to `owner`: it ticks until invalidated, until `repeatCount`
  /// calls, or until the owner is deallocated.
  ///
  /// ```swift
  /// ClosureTimer.schedule(every: .seconds(1), owner: self) { owner, timer in
  ///   owner.updateClock()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - owner: Held weakly; the timer stops when it is deallocated.
  ///   - tolerance: How late a tick may run so that wake-ups can be shared. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner, strong, and the timer.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: The timer does not keep the owner alive. Once the owner is gone the handler never
  /// > runs again and ``ClosureTimer/isValid`` is `false`; the scheduler drops the timer and its
  /// > captures at its next deadline.
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    every interval: Duration,
    owner: Owner,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    let timer = ClosureTimer(
      every: interval, owner: owner, tolerance: tolerance, repeatCount: repeatCount, on: delivery, clock: clock, handler
    )
    return timer.started()
  }
}
