extension ClosureTimer {
  /// Runs a `@MainActor` `body` once on the main actor, `delay` from now, unless the returned
  /// subscription is cancelled first.
  ///
  /// ```swift
  /// @MainActor final class Toast {
  ///   var isHidden = false
  ///   func show() {
  ///     isHidden = false
  ///     ClosureTimer.perform(after: .seconds(3), on: .mainActor) { @MainActor in self.isHidden = true }
  ///   }
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload: an unannotated closure picks the
  /// ``Delivery/mainActor`` overload, whose body is not isolated.
  ///
  /// - Parameters:
  ///   - delay: The time until `body` runs; zero or more.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - body: The delayed work, on the main actor.
  /// - Returns: A token that cancels the work; dropping it does not. `isCancelled` is `true` once
  ///   the work has run or was cancelled.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: always asynchronously, and not at all
  /// > once the token is cancelled, even if already enqueued; `body` and its captures are released
  /// > at once. On Linux the main actor's jobs run only while the main thread serves them.
  @discardableResult
  public static func perform(
    after delay: Duration,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ body: @escaping @MainActor @Sendable () -> Void
  ) -> Subscription {
    perform(after: delay, on: .mainActor, clock: clock) { MainActor.assumeIsolated { body() } }
  }

  /// Runs a `@MainActor` `body` once on the main actor, `delay` from now, with `owner` passed in,
  /// unless the owner has been deallocated or the returned subscription is cancelled first.
  ///
  /// ```swift
  /// @MainActor final class Banner {
  ///   var isHidden = false
  ///   func show() {
  ///     isHidden = false
  ///     ClosureTimer.perform(after: .seconds(3), owner: self, on: .mainActor) { @MainActor banner in
  ///       banner.isHidden = true
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - delay: The time until `body` runs; zero or more.
  ///   - owner: Held weakly and passed to `body` strong; once it is deallocated `body` never runs.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - body: The delayed work, on the main actor; receives the owner.
  /// - Returns: A token that cancels the work; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: always asynchronously, and not at all
  /// > once the token is cancelled, even if already enqueued.
  @discardableResult
  public static func perform<Owner: AnyObject & Sendable>(
    after delay: Duration,
    owner: Owner,
    on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ body: @escaping @MainActor @Sendable (Owner) -> Void
  ) -> Subscription {
    perform(after: delay, owner: owner, on: .mainActor, clock: clock) { owner in
      MainActor.assumeIsolated { body(owner) }
    }
  }
}
