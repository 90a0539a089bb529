public import ClosureKit
public import Foundation

extension NotificationCenter {
  /// The notifications named `name` (from `object`, if given), as a ``NotificationSource``, a
  /// `HandlerSource`: `addHandler`, `once`, the `owner:` variants and the main-actor view.
  ///
  /// ```swift
  /// let center = NotificationCenter.default
  /// let subscription = center.observing(.documentSaved).addHandler { note in
  ///   print("saved", note.object ?? "")
  /// }
  /// center.observing(.documentSaved).once { _ in print("first save") }
  /// subscription.cancel()   // removes the observer from the center
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name, or `nil` for every name.
  ///   - object: Only notifications posted with this object, or `nil` (the default) for any sender.
  /// - Returns: A source; each registration through it adds one block observer to this center.
  ///
  /// > Important: Safe from any thread. With `Delivery.immediate` a handler runs on the posting
  /// > thread, before `post` returns. After `cancel()` returns no delivery starts, also one already
  /// > queued; the observer is removed from the center. An owner-bound observer whose owner is gone
  /// > is removed at the next matching post.
  public func observing(_ name: Notification.Name?, object: Any? = nil) -> NotificationSource {
    NotificationSource(center: self, name: name, object: object)
  }
}

/// The notifications of one name (and sender) of a `NotificationCenter`, as a `HandlerSource`:
/// from `NotificationCenter.observing(_:object:)`.
///
/// ```swift
/// let saves = NotificationCenter.default.observing(.documentSaved)
/// saves.addHandler(on: .queue(.global())) { note in print("saved", note.name.rawValue) }
/// ```
///
/// > Important: Each registration is one block observer of the center, removed when its token is
/// > cancelled, its owner is found deallocated, or (`once`) it has run.
public struct NotificationSource: FlattenedHandlerSource, @unchecked Sendable {
  // @unchecked Sendable: `object` (`Any?`, as in Foundation's `addObserver(forName:object:queue:using:)`)
  // is never read or written here: it is only handed to the center, as the sender to match, which
  // Foundation does from any thread. The center and the name are Sendable.

  /// Each call hands over the posted notification.
  ///
  /// ```swift
  /// func show(_ note: NotificationSource.Payload) { print(note.name.rawValue) }
  /// ```
  ///
  /// > Important: The notification as posted, handed to the handler where its delivery runs it.
  public typealias Payload = Notification

  /// The center the observers are added to.
  let center: NotificationCenter
  /// The notification name, or `nil` for every name.
  let name: Notification.Name?
  /// The sender to match, or `nil` for any.
  let object: Any?

  /// Adds the block observer, the store behind `FlattenedHandlerSource`'s `register`; it ends
  /// itself at the first post that finds `owner` deallocated.
  package func addFlattened(_ added: FlattenedRegistration<Payload>) -> Subscription {
    let (delivery, owner, handler) = (added.delivery, added.owner, added.handler)
    let observation = NotificationObservation(center: center)
    let isOwnerBound = owner != nil
    weak let weakOwner = owner
    let token: any NSObjectProtocol
    if delivery.isImmediate {
      token = center.addObserver(forName: name, object: object, queue: nil) { [observation] notification in
        guard !observation.isEnded else { return }
        if isOwnerBound && weakOwner == nil { return observation.end() }
        handler(notification)
      }
    } else {
      token = center.addObserver(forName: name, object: object, queue: nil) { [observation] notification in
        guard !observation.isEnded else { return }
        if isOwnerBound && weakOwner == nil { return observation.end() }
        let transfer = NotificationTransfer(notification: notification)
        delivery.execute {
          guard !observation.isEnded else { return }
          handler(transfer.notification)
        }
      }
    }
    observation.attach(token)
    return Subscription(source: observation, node: nil)
  }
}
