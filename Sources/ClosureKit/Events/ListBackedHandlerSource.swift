/// A source whose handlers live in a `HandlerList` of its own, under one tag (an ``Event``: no
/// tag; a ``ControlActions/Actions``: its kinds): this protocol writes
/// ``HandlerSource/register(once:on:file:line:_:)`` once for both, as the list's `add`.
@usableFromInline
protocol ListBackedHandlerSource: HandlerSource where Payload: Sendable {
  /// What the list files each registration under.
  associatedtype Tag: Sendable
  /// The list that holds the handlers.
  var list: HandlerList<Payload, Tag> { get }
  /// The tag of every registration made through this source.
  var tag: Tag { get }
}

extension ListBackedHandlerSource {
  /// Registers `handler`: the primitive behind ``HandlerSource``'s `addHandler` and `once`, which
  /// are the methods to call.
  ///
  /// ```swift
  /// let changed = Event<Int>()
  /// let token = changed.register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Int>.plain { print($0) })
  /// let controls = ControlActions<ButtonEvent, String>()
  /// let action = controls.actions(for: .touchUpInside).register(
  ///   once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, String>.plain { print($0) })
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
  /// > Important: The rules of ``HandlerSource/addHandler(on:file:line:_:)``.
  @inlinable @inline(__always)
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Payload>
  ) -> HandlerSubscription {
    list.add(tag: tag, once: once, delivery: delivery, site: RegistrationSite(fileID: file, line: line), handler)
  }
}
