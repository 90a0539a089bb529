public import ClosureKit
public import Foundation

extension NotificationCenter {
  /// Observes notifications with a `@MainActor` handler that runs on the main actor.
  ///
  /// ```swift
  /// NotificationCenter.default.addObserver(forName: .init("SettingsChanged"), on: .mainActor) {
  ///   @MainActor notification in
  ///   print("reload the screen for", notification.name.rawValue)
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload: an unannotated closure picks the
  /// `Delivery.mainActor` overload, whose handler is not isolated.
  ///
  /// - Parameters:
  ///   - name: The notification name; `nil` for every name.
  ///   - object: The sender to observe; `nil` for any sender.
  ///   - delivery: `MainActorDelivery.mainActor`.
  ///   - handler: Receives each notification on the main actor.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: Delivered as with `Delivery.mainActor`: asynchronously, after `post` has
  /// > returned, in posting order, and not at all once the token is cancelled, even if already
  /// > enqueued.
  @discardableResult
  public func addObserver(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: MainActorDelivery,
    _ handler: @escaping @MainActor @Sendable (Notification) -> Void
  ) -> Subscription {
    addObserver(forName: name, object: object, on: .mainActor) { notification in
      let transfer = NotificationTransfer(notification: notification)
      MainActor.assumeIsolated { handler(transfer.notification) }
    }
  }

  /// Observes notifications with a `@MainActor` handler bound to `owner`.
  ///
  /// ```swift
  /// center.addObserver(forName: .init("SettingsChanged"), on: .mainActor, owner: self) {
  ///   @MainActor screen, _ in
  ///   screen.reload()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name; `nil` for every name.
  ///   - object: The sender to observe; `nil` for any sender.
  ///   - delivery: `MainActorDelivery.mainActor`.
  ///   - owner: Held weakly; the observer is removed when it is deallocated.
  ///   - handler: Receives the owner and each notification on the main actor.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: Delivered as with `Delivery.mainActor`; never after the owner is gone.
  @discardableResult
  public func addObserver<Owner: AnyObject & Sendable>(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: MainActorDelivery,
    owner: Owner,
    _ handler: @escaping @MainActor @Sendable (Owner, Notification) -> Void
  ) -> Subscription {
    addObserver(forName: name, object: object, on: .mainActor, owner: owner) { owner, notification in
      let transfer = NotificationTransfer(notification: notification)
      MainActor.assumeIsolated { handler(owner, transfer.notification) }
    }
  }
}
