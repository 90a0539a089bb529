/// The source of one token that stands for several registrations (the observation of several key
/// paths): cancelling it cancels every one of them.
final class SubscriptionGroup: SubscriptionSource {
  /// The registrations' tokens; `nil` once the group is cancelled.
  private let parts: Locked<[Subscription]?>

  private init(_ parts: [Subscription]) {
    self.parts = Locked(parts)
  }

  /// One token for `parts`. Dropping it drops their tokens, which does not end them.
  static func subscription(for parts: [Subscription]) -> Subscription {
    Subscription(source: SubscriptionGroup(parts), node: nil)
  }

  func cancel(_ subscription: Subscription) {
    let taken = parts.withLock { parts in
      defer { parts = nil }
      return parts
    }
    // Outside the lock: cancelling releases the handlers' captures, whose deinit may use this token.
    if let taken { Subscription.cancel(taken) }
    withExtendedLifetime(taken) {}
  }

  /// Cancelled, or every registration has ended (its object or owner is gone).
  func isCancelled(_ subscription: Subscription) -> Bool {
    guard let current = parts.withLock({ $0 }) else { return true }
    return current.allSatisfy(\.isCancelled)
  }

}
