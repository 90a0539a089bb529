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
  /// - Returns: A source. The registrations of one center, name and sender (`nil`, or the same
  ///   object) share one block observer of the center, added with the first and removed with the
  ///   last: the handlers of a post run in registration order, at that observer's place among the
  ///   center's other observers.
  ///
  /// > Important: Safe from any thread. With `Delivery.immediate` a handler runs on the posting
  /// > thread, before `post` returns; with `.operationQueue(queue)` it too has run when `post`
  /// > returns, as Foundation's `queue:` observers have (`post` waits for the operation, or runs
  /// > the handler at once when called on that queue); `.queue` and `.mainActor` are asynchronous.
  /// > After `cancel()` returns no delivery starts, also one already
  /// > queued; with the last handler of its name and sender, the observer is removed from the
  /// > center. An owner-bound handler whose owner is gone is removed at the next matching post (or
  /// > registration). Senders match as in Foundation, by identity: a sender that is not a class
  /// > instance gets an observer of its own.
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
/// > Important: The registrations of one center, name and sender share one block observer of the
/// > center; a handler is removed when its token is cancelled, its owner is found deallocated, or
/// > (`once`) it has run, and the observer with the last handler.
public struct NotificationSource: HandlerSource, @unchecked Sendable {
  // @unchecked Sendable: `object` (`Any?`, as in Foundation's `addObserver(forName:object:queue:using:)`)
  // is never read or written here: only its identity is taken, and it is handed to the center, as
  // the sender to match, which Foundation does from any thread. The center and the name are Sendable.

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

  /// Registers `handler` on the list this center, name and sender share (see
  /// `NotificationCenter.observing(_:object:)`): the primitive behind `addHandler` and `once`,
  /// which are the methods to call.
  ///
  /// ```swift
  /// let saves = NotificationCenter.default.observing(.documentSaved)
  /// let token = saves.register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Notification>.plain { print($0.name) })
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that removes this one handler; dropping it does not.
  ///
  /// > Important: The rules of `NotificationCenter.observing(_:object:)`.
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Notification>
  ) -> HandlerSubscription {
    let relayed: SourceHandler<Owner, FanOutPayload>
    switch handler {
    case .plain(let handler):
      relayed = .plain { handler(NotificationTransfer.of($0).notification) }
    case .owned(let owner, let handler):
      relayed = .owned(owner) { handler($0, NotificationTransfer.of($1).notification) }
    }
    return NotificationRelays.register(
      center: center,
      name: name,
      object: object,
      once: once,
      on: delivery.waitingForOperationQueues,
      site: RegistrationSite(fileID: file, line: line),
      relayed
    )
  }
}
