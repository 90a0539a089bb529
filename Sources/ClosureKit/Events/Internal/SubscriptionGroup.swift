/// The source of one token that stands for several registrations (the observation of several key
/// paths): cancelling it cancels every one of them.
///
/// Its state goes `active` → `cancelling` (one caller has taken the parts and is cancelling them)
/// → `cancelled`; a second caller waits for the first (``CancelGate``), and ``isCancelled(_:)``
/// reads `true` only once the parts have ended.
final class SubscriptionGroup: SubscriptionSource {
  /// The state of a group.
  enum State {
    /// The registrations' tokens, none cancelled through the group yet.
    case active([HandlerSubscription])
    /// A caller has taken the parts and is cancelling them; `isAwaited` when another waits for it.
    case cancelling(isAwaited: Bool)
    /// Every part has been cancelled.
    case cancelled
  }

  private let state: Locked<State>

  private init(_ parts: [HandlerSubscription]) {
    self.state = Locked(.active(parts))
  }

  /// One token for `parts`. Dropping it drops their tokens, which does not end them.
  static func subscription(for parts: [HandlerSubscription]) -> HandlerSubscription {
    HandlerSubscription(source: SubscriptionGroup(parts), node: nil)
  }

  func cancel(_ subscription: HandlerSubscription) {
    let taken = state.withLock { state -> [HandlerSubscription]? in
      guard case .active(let parts) = state else { return nil }
      state = .cancelling(isAwaited: false)
      return parts
    }
    guard let taken else { return awaitOtherCanceller() }
    // Outside the lock: cancelling releases the handlers' captures, whose deinit may use this token.
    CancelGate.runningEffects { HandlerSubscription.cancel(taken) }
    let wake = state.withLock { state in
      defer { state = .cancelled }
      if case .cancelling(isAwaited: true) = state { return true }
      return false
    }
    if wake { CancelGate.wake() }
    withExtendedLifetime(taken) {}
  }

  /// Returns once another caller's cancel has finished, unless this thread runs a cancel's work
  /// (which may be that very cancel).
  private func awaitOtherCanceller() {
    guard !CancelGate.isRunningEffects else { return }
    let mustWait = state.withLock { state in
      guard case .cancelling = state else { return false }
      state = .cancelling(isAwaited: true)
      return true
    }
    guard mustWait else { return }
    CancelGate.wait {
      state.withLock { state in
        if case .cancelling = state { return true }
        return false
      }
    }
  }

  /// Cancelled and ended, or every registration has ended (its object or owner is gone).
  func isCancelled(_ subscription: HandlerSubscription) -> Bool {
    let parts = state.withLock { state -> [HandlerSubscription]? in
      switch state {
      case .active(let parts): parts
      case .cancelling: nil
      case .cancelled: []
      }
    }
    // Asked outside the lock: a part may load a weak reference to answer.
    guard let parts else { return false }
    return parts.allSatisfy(\.isCancelled)
  }
}
