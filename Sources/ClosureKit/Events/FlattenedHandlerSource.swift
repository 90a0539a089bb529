/// A source whose store knows neither owners nor one-shot handlers (an `@Observable` tracker, the
/// fields of an `Observed` box): it adds one plain closure, and this protocol
/// writes ``HandlerSource/register(once:on:file:line:_:)`` once for all of them, binding the owner
/// and the one call with `SourceHandler.registerFlattened(once:_:)`.
package protocol FlattenedHandlerSource: HandlerSource {
  /// Adds the registration's closure to the source's store.
  func addFlattened(_ registration: FlattenedRegistration<Payload>) -> HandlerSubscription
}

/// What a `FlattenedHandlerSource`'s store adds: one plain closure, which already checks its owner
/// and claims its one call, with its delivery and the owner to record.
package struct FlattenedRegistration<Payload>: Sendable {
  /// Where the handler runs.
  package let delivery: Delivery
  /// The owner to record (a store may end the registration when it goes), or `nil`.
  package let owner: (any AnyObject & Sendable)?
  /// The closure to call.
  package let handler: @Sendable (Payload) -> Void
}

extension FlattenedHandlerSource {
  /// Registers `handler` through `addFlattened(_:)`: the primitive behind `addHandler`
  /// and `once`, which are the methods to call.
  ///
  /// ```swift
  /// let box = Observed(0)
  /// let token = box.observing().register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Change<Int>>.plain { print($0.newValue!) })
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that ends the registration; dropping it does not.
  ///
  /// > Important: The rules of ``HandlerSource/addHandler(on:file:line:_:)`` and of the source's
  /// > own store (for a main-actor key path: call it on the main actor).
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Payload>
  ) -> HandlerSubscription {
    let delivery = delivery
    return handler.registerFlattened(once: once) { owner, handler in
      addFlattened(FlattenedRegistration(delivery: delivery, owner: owner, handler: handler))
    }
  }
}
