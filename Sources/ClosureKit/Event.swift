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
/// A handler lives as long as the event unless its ``Subscription`` is cancelled, its `owner:`
/// is deallocated, it was registered with `once`, or the ``SubscriptionBag`` holding its token
/// ends. Dropping the token does not end it.
///
/// > Important: Every method is safe from any thread. Handlers never run while the event's lock
/// > is held, so a handler may send, add or cancel on the same event. A handler added during a
/// > send is not called by that send; a handler cancelled during a send and not yet reached is not
/// > called; a send from inside a handler is delivered depth-first.
public final class Event<Payload: Sendable>: Sendable {
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

  /// Registers a handler that runs every time the event is sent.
  ///
  /// ```swift
  /// let changed = Event<Int>()
  /// changed.addHandler { value in print("now", value) }
  /// changed.addHandler(on: .queue(.global())) { value in print("later", value) }
  /// ```
  ///
  /// - Parameters:
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives each payload.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: With ``Delivery/immediate`` the handler runs synchronously on the sending
  /// > thread, in registration order, outside any lock. After the token is cancelled no delivery
  /// > starts, including ones already queued.
  @inlinable @discardableResult
  public func addHandler(
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    list.add(
      tag: (),
      once: false,
      delivery: delivery,
      site: RegistrationSite(fileID: file, line: line),
      handler: handler
    )
  }

  /// Registers a handler bound to `owner`: it ends when `owner` is deallocated, and receives
  /// `owner` as a strong parameter, so the handler needs no `[weak self]`.
  ///
  /// ```swift
  /// final class Label: Sendable {
  ///   func show(_ text: String) { print(text) }
  /// }
  /// let label = Label()
  /// let titleChanged = Event<String>()
  /// titleChanged.addHandler(owner: label) { label, title in label.show(title) }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and the payload.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: Once the owner is gone the handler is never called again, and what it captured
  /// > is released at the event's next send (or, see the Events article, by a registration).
  @inlinable @discardableResult
  public func addHandler<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    list.add(
      tag: (),
      once: false,
      owner: owner,
      delivery: delivery,
      site: RegistrationSite(fileID: file, line: line),
      handler: handler
    )
  }

  /// Registers a handler that runs on the next send only, then ends and releases its captures.
  ///
  /// ```swift
  /// let loaded = Event<Void>()
  /// loaded.once { print("first load") }
  /// loaded.send()   // prints "first load"
  /// loaded.send()   // prints nothing
  /// ```
  ///
  /// - Parameters:
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the payload of the first send.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: Exactly once, also when several threads send at the same moment.
  @inlinable @discardableResult
  public func once(
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    list.add(
      tag: (),
      once: true,
      delivery: delivery,
      site: RegistrationSite(fileID: file, line: line),
      handler: handler
    )
  }

  /// Registers a one-shot handler bound to `owner`.
  ///
  /// ```swift
  /// loaded.once(owner: self) { owner, _ in owner.hideSpinner() }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and the payload of the first send.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: Runs at most once, and not at all if the owner is deallocated first.
  @inlinable @discardableResult
  public func once<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    list.add(
      tag: (),
      once: true,
      owner: owner,
      delivery: delivery,
      site: RegistrationSite(fileID: file, line: line),
      handler: handler
    )
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
