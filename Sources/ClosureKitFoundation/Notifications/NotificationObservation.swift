import ClosureKit
import Foundation
import Synchronization

/// One block observer of a `NotificationCenter`, removed when its subscription is cancelled or
/// its owner is found deallocated. The ``Subscription`` source for
/// `NotificationCenter.observing(_:object:)`.
final class NotificationObservation: SubscriptionSource {
  /// The center the observer was added to; weak, because the center holds the observer's block,
  /// which holds this observation.
  private weak let center: NotificationCenter?
  /// Set once, when the observation ends; read on every post.
  private let ended = Atomic<Bool>(false)
  /// Foundation's token, once `addObserver` has returned; `nil` after removal.
  private let token = Locked<(any NSObjectProtocol)?>(nil)

  init(center: NotificationCenter) {
    self.center = center
  }

  /// Whether the observation has ended; a delivery that finds it ended does nothing.
  var isEnded: Bool { ended.load(ordering: .acquiring) }

  /// Records Foundation's token; removes the observer at once if the observation already ended.
  func attach(_ newToken: any NSObjectProtocol) {
    let removeNow = token.withLock { token -> Bool in
      if isEnded { return true }
      token = newToken
      return false
    }
    if removeNow { center?.removeObserver(newToken) }
  }

  /// Ends the observation and removes Foundation's observer. Idempotent.
  func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let removed = token.withLock { token in
      defer { token = nil }
      return token
    }
    if let removed { center?.removeObserver(removed) }
  }

  func cancel(_ subscription: Subscription) { end() }

  func isCancelled(_ subscription: Subscription) -> Bool { isEnded }
}

/// A notification handed to a handler on another thread or in an async sequence.
///
/// `@unchecked Sendable`: `Notification` is an immutable value; the poster hands its object and
/// user info over to the observers, as Foundation's own queue-based observers do.
struct NotificationTransfer: @unchecked Sendable {
  let notification: Notification
}
