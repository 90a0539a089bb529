/// A thread-safe multicast list of handlers: the closure form of target-action and of
/// Objective-C notifications.
///
/// ```swift
/// let saved = Event<String>()
/// let subscription = saved.addHandler { name in print("saved", name) }
/// saved.send("notes.txt")        // prints "saved notes.txt"
/// subscription.cancel()
/// ```
///
/// `Event` is a ``HandlerSource``: `addHandler(on:_:)`, `addHandler(owner:on:_:)`, `once(on:_:)`,
/// `once(owner:on:_:)` and the main-actor view ``HandlerSource/onMainActor`` come from there.
///
/// A handler lives as long as the event unless its ``HandlerSubscription`` is cancelled, its `owner:`
/// is deallocated, it was registered with `once`, or the ``SubscriptionBag`` holding its token
/// ends. Dropping the token does not end it.
///
/// > Important: Every method is safe from any thread. Handlers never run while the event's lock
/// > is held, so a handler may send, add or cancel on the same event. A handler added during a
/// > send is not called by that send; a handler cancelled during a send and not yet reached is not
/// > called; a send from inside a handler is delivered depth-first.
public final class Event<Payload: Sendable>: ListBackedHandlerSource {
  @usableFromInline let list = HandlerList<Payload, Void>()

  /// Creates an event with no handlers.
  ///
  /// ```swift
  /// let progress = Event<Double>()
  /// ```
  public init() {}

  deinit {
    list.close()
  }

  /// The tag of every registration: an event has one list of handlers, not one per kind.
  @inlinable var tag: Void { () }

  /// Calls every handler with `payload`.
  ///
  /// ```swift
  /// let progress = Event<Double>()
  /// progress.send(0.5)
  /// ```
  ///
  /// - Parameter payload: The value handed to each handler.
  ///
  /// > Important: Immediate handlers have all run, in registration order, when this returns;
  /// > queued ones have been enqueued. Safe to call from inside a handler (depth-first).
  ///
  /// - Complexity: O(n) in the number of handlers.
  @inlinable
  public func send(_ payload: Payload) {
    list.send(payload)
  }

  /// The number of handlers that have not ended.
  ///
  /// ```swift
  /// let event = Event<Int>()
  /// event.addHandler { _ in }
  /// assert(event.handlerCount == 1)
  /// ```
  ///
  /// - Complexity: O(1), or O(n) while handlers registered with an owner exist (their owners are
  ///   checked).
  public var handlerCount: Int {
    list.count()
  }

  /// Where each live handler was registered, in registration order; `nil` for a handler
  /// registered while diagnostics were off. Public through `ClosureKitTesting`.
  package var liveRegistrationSites: [RegistrationSite?] {
    list.liveSites()
  }

}

extension Event where Payload == Void {
  /// Calls every handler of a payload-less event.
  ///
  /// ```swift
  /// let tapped = Event<Void>()
  /// tapped.addHandler { print("tapped") }
  /// tapped.send()
  /// ```
  ///
  /// > Important: The same rules as ``send(_:)``.
  public func send() {
    send(())
  }
}
