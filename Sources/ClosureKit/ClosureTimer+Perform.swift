extension ClosureTimer {
  /// Runs `body` once, `delay` from now, unless the returned subscription is cancelled first:
  /// BlocksKit's cancellable delayed block.
  ///
  /// ```swift
  /// let save = ClosureTimer.perform(after: .seconds(2)) { store.save() }
  /// // the user typed again:
  /// save.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time until `body` runs; zero or more.
  ///   - delivery: Where `body` runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - body: The delayed work.
  /// - Returns: A token that cancels the work; dropping it does not. `isCancelled` is `true` once
  ///   the work has run or was cancelled.
  ///
  /// > Important: After `cancel()` returns, `body` does not start, also when its call was already
  /// > queued; `body` and its captures are released at once.
  @discardableResult
  public static func perform(
    after delay: Duration,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ body: @escaping @Sendable () -> Void
  ) -> Subscription {
    let timer = ClosureTimer.schedule(after: delay, on: delivery, clock: clock) { _ in body() }
    return Subscription(source: timer, node: nil)
  }
}

extension ClosureTimer: SubscriptionSource {
  package func cancel(_ subscription: Subscription) {
    invalidate()
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    !isValid
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {}
}
