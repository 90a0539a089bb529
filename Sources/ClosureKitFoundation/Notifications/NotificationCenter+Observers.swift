public import ClosureKit
public import Foundation

extension NotificationCenter {
  /// Adds a handler for the notifications named `name`, removed when its subscription is
  /// cancelled.
  ///
  /// ```swift
  /// let subscription = NotificationCenter.default.addObserver(forName: .documentSaved) { note in
  ///   print("saved", note.object ?? "")
  /// }
  /// subscription.cancel()   // removes the observer from the center
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name, or `nil` for every name.
  ///   - object: Only notifications posted with this object, or `nil` for any sender.
  ///   - delivery: Where the handler runs. Defaults to `Delivery/immediate`: on the
  ///     posting thread, before `post` returns.
  ///   - handler: Receives each notification.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: Safe from any thread. After `cancel()` returns no delivery starts, also one
  /// > already queued by `delivery`.
  @discardableResult
  public func addObserver(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Notification) -> Void
  ) -> Subscription {
    let observation = NotificationObservation(center: self)
    if delivery.isImmediate {
      let token = addObserver(forName: name, object: object, queue: nil) { [observation] notification in
        guard !observation.isEnded else { return }
        handler(notification)
      }
      observation.attach(token)
      return Subscription(source: observation, node: nil)
    }
    let token = addObserver(forName: name, object: object, queue: nil) { [observation] notification in
      guard !observation.isEnded else { return }
      let transfer = NotificationTransfer(notification: notification)
      delivery.execute {
        guard !observation.isEnded else { return }
        handler(transfer.notification)
      }
    }
    observation.attach(token)
    return Subscription(source: observation, node: nil)
  }

  /// Adds a handler bound to `owner`: the observer is removed when `owner` is deallocated, and
  /// the handler receives `owner` strong, so it needs no `[weak self]`.
  ///
  /// ```swift
  /// NotificationCenter.default.addObserver(forName: .documentSaved, owner: self) { owner, note in
  ///   owner.reload()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name, or `nil` for every name.
  ///   - object: Only notifications posted with this object, or `nil` for any sender.
  ///   - delivery: Where the handler runs. Defaults to `Delivery/immediate`.
  ///   - owner: Held weakly; the observer ends when it is deallocated.
  ///   - handler: Receives the owner and each notification.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: Once the owner is gone the handler is never called again; the observer is
  /// > removed from the center, releasing the handler, at the next matching post.
  @discardableResult
  public func addObserver<Owner: AnyObject & Sendable>(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: Delivery = .immediate,
    owner: Owner,
    _ handler: @escaping @Sendable (Owner, Notification) -> Void
  ) -> Subscription {
    let observation = NotificationObservation(center: self)
    weak let weakOwner = owner
    if delivery.isImmediate {
      let token = addObserver(forName: name, object: object, queue: nil) { [observation] notification in
        guard !observation.isEnded else { return }
        guard let owner = weakOwner else { return observation.end() }
        handler(owner, notification)
      }
      observation.attach(token)
      return Subscription(source: observation, node: nil)
    }
    let token = addObserver(forName: name, object: object, queue: nil) { [observation] notification in
      guard !observation.isEnded else { return }
      guard weakOwner != nil else { return observation.end() }
      let transfer = NotificationTransfer(notification: notification)
      delivery.execute {
        guard !observation.isEnded, let owner = weakOwner else { return }
        handler(owner, transfer.notification)
      }
    }
    observation.attach(token)
    return Subscription(source: observation, node: nil)
  }
}
