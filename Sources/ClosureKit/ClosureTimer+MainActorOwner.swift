extension ClosureTimer {
  /// Schedules a one-shot timer bound to `owner` whose `@MainActor` handler runs on the main actor.
  ///
  /// ```swift
  /// ClosureTimer.schedule(after: .seconds(2), owner: self, on: .mainActor) { @MainActor screen, _ in
  ///   screen.hideToast()
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - delay: The time until the call; zero or more.
  ///   - owner: Held weakly; the timer invalidates itself when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner and the timer on the main actor.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: always asynchronously, and not at all
  /// > once the timer is invalidated, even if already enqueued.
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    after delay: Duration,
    owner: Owner,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    schedule(after: delay, owner: owner, on: .mainActor, clock: clock, onMainActor(handler))
  }

  /// Schedules a repeating timer bound to `owner` whose `@MainActor` handler runs on the main
  /// actor.
  ///
  /// ```swift
  /// ClosureTimer.schedule(every: .seconds(1), owner: self, on: .mainActor) { @MainActor screen, _ in
  ///   screen.refreshClock()
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - owner: Held weakly; the timer invalidates itself when it is deallocated.
  ///   - tolerance: How late a tick may run. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner and the timer on the main actor.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    every interval: Duration,
    owner: Owner,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    schedule(
      every: interval,
      owner: owner,
      tolerance: tolerance,
      repeatCount: repeatCount,
      on: .mainActor,
      clock: clock,
      onMainActor(handler)
    )
  }

  /// Creates a stopped one-shot timer whose `@MainActor` handler runs on the main actor once
  /// started.
  ///
  /// ```swift
  /// let hide = ClosureTimer(after: .seconds(2), on: .mainActor) { @MainActor _ in toast.isHidden = true }
  /// hide.start()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time from ``start()`` until the call; zero or more.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer on the main actor.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  public convenience init(
    after delay: Duration,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) {
    self.init(after: delay, on: .mainActor, clock: clock, Self.onMainActor(handler))
  }

  /// Creates a stopped repeating timer whose `@MainActor` handler runs on the main actor once
  /// started.
  ///
  /// ```swift
  /// let clock = ClosureTimer(every: .seconds(1), on: .mainActor) { @MainActor _ in clockLabel.text = now() }
  /// clock.start()
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - tolerance: How late a tick may run. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer on the main actor.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  public convenience init(
    every interval: Duration,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) {
    self.init(
      every: interval, tolerance: tolerance, repeatCount: repeatCount, on: .mainActor, clock: clock,
      Self.onMainActor(handler)
    )
  }

  /// Creates a stopped one-shot timer bound to `owner` whose `@MainActor` handler runs on the main
  /// actor once started.
  ///
  /// ```swift
  /// let hide = ClosureTimer(after: .seconds(2), owner: self, on: .mainActor) { @MainActor screen, _ in
  ///   screen.hideToast()
  /// }
  /// hide.start()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time from ``start()`` until the call; zero or more.
  ///   - owner: Held weakly; the timer invalidates itself when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner and the timer on the main actor.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  public convenience init<Owner: AnyObject & Sendable>(
    after delay: Duration,
    owner: Owner,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) {
    self.init(after: delay, owner: owner, on: .mainActor, clock: clock, Self.onMainActor(handler))
  }

  /// Creates a stopped repeating timer bound to `owner` whose `@MainActor` handler runs on the
  /// main actor once started.
  ///
  /// ```swift
  /// let ticking = ClosureTimer(every: .seconds(1), owner: self, on: .mainActor) { @MainActor screen, _ in
  ///   screen.refreshClock()
  /// }
  /// ticking.start()
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - owner: Held weakly; the timer invalidates itself when it is deallocated.
  ///   - tolerance: How late a tick may run. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the owner and the timer on the main actor.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  public convenience init<Owner: AnyObject & Sendable>(
    every interval: Duration,
    owner: Owner,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) {
    self.init(
      every: interval, owner: owner, tolerance: tolerance, repeatCount: repeatCount, on: .mainActor, clock: clock,
      Self.onMainActor(handler)
    )
  }

  /// Adapts a main-actor owner handler for ``Delivery/mainActor``, which runs it on the main actor.
  static func onMainActor<Owner: AnyObject & Sendable>(
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) -> @Sendable (Owner, ClosureTimer) -> Void {
    { owner, timer in MainActor.assumeIsolated { handler(owner, timer) } }
  }
}
