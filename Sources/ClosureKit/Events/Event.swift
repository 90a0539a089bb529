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
/// A handler lives as long as the event unless its ``Subscription`` is cancelled, its `owner:`
/// is deallocated, it was registered with `once`, or the ``SubscriptionBag`` holding its token
/// ends. Dropping the token does not end it.
///
/// > Important: Every method is safe from any thread. Handlers never run while the event's lock
/// > is held, so a handler may send, add or cancel on the same event. A handler added during a
/// > send is not called by that send; a handler cancelled during a send and not yet reached is not
/// > called; a send from inside a handler is delivered depth-first.
public final class Event<Payload: Sendable>: HandlerSource {
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

  /// Registers `handler`: the primitive behind ``HandlerSource``'s `addHandler` and `once`, which
  /// are the methods to call.
  ///
  /// ```swift
  /// let changed = Event<Int>()
  /// let token = changed.register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Int>.plain { print($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first send.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: The rules of ``HandlerSource/addHandler(on:file:line:_:)``.
  @inlinable @inline(__always)
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Payload>
  ) -> Subscription {
    list.add(tag: (), once: once, delivery: delivery, site: RegistrationSite(fileID: file, line: line), handler)
  }

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
