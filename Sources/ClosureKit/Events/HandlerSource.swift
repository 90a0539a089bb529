// The one public shape of every multicast source (issue 27, item 3).
//
// Convention for every source, also the ones that do not conform (timers, UIKit):
// - one primitive, `register(once:on:file:line:_:)`: once or not, the delivery, the registration
//   site and a `SourceHandler` (the closure, with an owner or none); everything users call is
//   written once on top of it;
// - label order: `owner:`, then delivery (`on:`), then the closure; hidden `file:`/`line:` before it;
// - the main-actor axis is a view, `source.onMainActor`, whose methods take `@MainActor` closures
//   (inferred: the user writes no annotation) and deliver as `Delivery.mainActor` does; no overload
//   takes a second `.mainActor`. `Delivery.mainActor` (a nonisolated closure run on main) stays;
// - a source that needs arguments is reached through a small selector returning a source
//   (`actions(for:)`, `observing(_:)`, `observing(_:object:)`).

/// A source of handler calls: an event, a control's actions for some kinds, an observed value, a
/// notification name. Every source offers the same four registrations and a main-actor view.
///
/// ```swift
/// func logTexts<Source: HandlerSource<String>>(of source: Source) -> HandlerSubscription {
///   source.addHandler { text in print("log:", text) }
/// }
/// let renamed = Event<String>()
/// let logging = logTexts(of: renamed)
/// renamed.send("notes.txt")   // prints "log: notes.txt"
/// ```
///
/// Conform a type of your own by implementing ``register(once:on:file:line:_:)``; the extension provides
/// ``addHandler(on:file:line:_:)``, ``addHandler(owner:on:file:line:_:)``,
/// ``once(on:file:line:_:)``, ``once(owner:on:file:line:_:)`` and ``onMainActor``.
///
/// > Important: Every source is safe to use from any thread, and follows one lifetime rule: a
/// > handler lives as long as its source unless its token is cancelled, its owner is deallocated, it
/// > was registered with `once` and has run, or the ``SubscriptionBag`` holding its token ends.
public protocol HandlerSource<Payload>: Sendable {
  /// What each call hands to the handler.
  associatedtype Payload

  /// The one primitive: registers `handler` and returns its token.
  ///
  /// ```swift
  /// let tapped = Event<Int>()
  /// let token = tapped.register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Int>.plain { print($0) })
  /// ```
  ///
  /// Call the extension's methods instead; implement this to make a type a source.
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration, for `HandlerDiagnostics`.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: An implementation calls the handler as `delivery` says, never under a lock, never
  /// > after the token is cancelled; an owned handler never after its owner is gone; a one-shot
  /// > handler at most once.
  func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Payload>
  ) -> HandlerSubscription
}

extension HandlerSource {
  /// Registers a handler that runs every time the source fires.
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
  /// > Important: With ``Delivery/immediate`` the handler runs synchronously on the thread that
  /// > fires the source, in registration order, outside any lock, so it may send, add or cancel on
  /// > the same source. After the token is cancelled no delivery starts, including ones already
  /// > queued. For a `@MainActor` closure use ``onMainActor``.
  ///
  /// If the compiler rejects the handler, see <doc:CommonCompilerErrors>.
  @inlinable @discardableResult
  public func addHandler(
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> HandlerSubscription {
    register(once: false, on: delivery, file: file, line: line, SourceHandler<NoOwner, Payload>.plain(handler))
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
  /// > Important: Threading as ``addHandler(on:file:line:_:)``. Once the owner is gone the handler
  /// > is never called again, and what it captured is released no later than the source's next
  /// > call or registration.
  ///
  /// If the compiler rejects the handler, see <doc:CommonCompilerErrors>.
  @inlinable @discardableResult
  public func addHandler<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> HandlerSubscription {
    register(once: false, on: delivery, file: file, line: line, .owned(owner, handler))
  }

  /// Registers a handler that runs on the next call only, then ends and releases its captures.
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
  ///   - handler: Receives the payload of the first call.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: Exactly once, also when several threads fire the source at the same moment;
  /// > threading as ``addHandler(on:file:line:_:)``.
  @inlinable @discardableResult
  public func once(
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> HandlerSubscription {
    register(once: true, on: delivery, file: file, line: line, SourceHandler<NoOwner, Payload>.plain(handler))
  }

  /// Registers a one-shot handler bound to `owner`.
  ///
  /// ```swift
  /// final class Spinner: Sendable { func hide() {} }
  /// let spinner = Spinner()
  /// let loaded = Event<Void>()
  /// loaded.once(owner: spinner) { spinner, _ in spinner.hide() }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and the payload of the first call.
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
  ) -> HandlerSubscription {
    register(once: true, on: delivery, file: file, line: line, .owned(owner, handler))
  }

  /// The same source, for handlers that are `@MainActor`: the four registrations with closures
  /// that run on the main actor and may use main-actor state directly.
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///   var title = ""
  ///   func bind(to renamed: Event<String>) {
  ///     renamed.onMainActor.addHandler { name in self.title = name }
  ///   }
  /// }
  /// ```
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: asynchronously on the main actor, in
  /// > call order, never synchronously (also when fired on the main actor), and not at all once
  /// > the token is cancelled, even if already enqueued.
  ///
  /// If the compiler rejects a handler, see <doc:CommonCompilerErrors>.
  @inlinable
  public var onMainActor: MainActorHandlerSource<Self> {
    MainActorHandlerSource(base: self)
  }
}
