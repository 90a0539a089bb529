extension ClosureTimer {
  /// Schedules a one-shot timer whose `@MainActor` handler runs on the main actor.
  ///
  /// ```swift
  /// ClosureTimer.schedule(after: .seconds(2), on: .mainActor) { @MainActor _ in
  ///   toast.isHidden = true
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - delay: The time until the call; zero or more.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer on the main actor.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: always asynchronously, and not at all
  /// > once the timer is invalidated, even if already enqueued.
  @discardableResult
  public static func schedule(
    after delay: Duration,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    schedule(after: delay, on: .mainActor, clock: clock, onMainActor(handler))
  }

  /// Schedules a repeating timer whose `@MainActor` handler runs on the main actor.
  ///
  /// ```swift
  /// ClosureTimer.schedule(every: .seconds(1), on: .mainActor) { @MainActor timer in
  ///   clockLabel.text = now()
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - tolerance: How late a tick may run. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the interval. Defaults to `ContinuousClock()`.
  ///   - handler: Receives the timer on the main actor.
  /// - Returns: The running timer. Dropping it does not stop it.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``. On Linux the main actor's jobs run only
  /// > while the main thread serves them (`async` `main`, `dispatchMain()` or a running RunLoop).
  @discardableResult
  public static func schedule(
    every interval: Duration,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    schedule(
      every: interval,
      tolerance: tolerance,
      repeatCount: repeatCount,
      on: .mainActor,
      clock: clock,
      onMainActor(handler)
    )
  }

  /// Adapts a main-actor handler for ``Delivery/mainActor``, which runs it on the main actor.
  static func onMainActor(
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) -> @Sendable (ClosureTimer) -> Void {
    { timer in MainActor.assumeIsolated { handler(timer) } }
  }
}
