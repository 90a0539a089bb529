// The `MainActorDelivery` overloads of `Event`, deprecated for one release: the main-actor view
// (`event.onMainActor`) replaces them.

extension Event {
  /// Deprecated: use `onMainActor.addHandler(_:)`, whose closure is `@MainActor` without an
  /// annotation.
  ///
  /// - Parameters:
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - handler: Receives each payload on the main actor.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/addHandler(file:line:_:)``.
  @available(*, deprecated, message: "use onMainActor.addHandler { ... }")
  @discardableResult
  public func addHandler(
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> HandlerSubscription {
    onMainActor.addHandler(file: file, line: line, handler)
  }

  /// Deprecated: use `onMainActor.addHandler(owner:_:)`.
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - handler: Receives the owner and each payload on the main actor.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/addHandler(owner:file:line:_:)``.
  @available(*, deprecated, message: "use onMainActor.addHandler(owner:) { ... }")
  @discardableResult
  public func addHandler<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, Payload) -> Void
  ) -> HandlerSubscription {
    onMainActor.addHandler(owner: owner, file: file, line: line, handler)
  }

  /// Deprecated: use `onMainActor.once(_:)`.
  ///
  /// - Parameters:
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - handler: Receives the payload of the first send, on the main actor.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/once(file:line:_:)``.
  @available(*, deprecated, message: "use onMainActor.once { ... }")
  @discardableResult
  public func once(
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> HandlerSubscription {
    onMainActor.once(file: file, line: line, handler)
  }

  /// Deprecated: use `onMainActor.once(owner:_:)`.
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - handler: Receives the owner and the payload of the first send, on the main actor.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/once(owner:file:line:_:)``.
  @available(*, deprecated, message: "use onMainActor.once(owner:) { ... }")
  @discardableResult
  public func once<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, Payload) -> Void
  ) -> HandlerSubscription {
    onMainActor.once(owner: owner, file: file, line: line, handler)
  }
}
