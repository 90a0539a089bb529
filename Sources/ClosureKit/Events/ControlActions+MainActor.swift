// The owner and `MainActorDelivery` overloads of `ControlActions.addAction`, deprecated for one
// release: `actions(for:)` returns a `HandlerSource`, which has the owner variants and the
// main-actor view.

extension ControlActions {
  /// Deprecated: use `actions(for: kinds).addHandler(owner:on:_:)`.
  ///
  /// - Parameters:
  ///   - kinds: The kinds that fire the action; must not be empty.
  ///   - owner: Held weakly; the action ends when it is deallocated.
  ///   - delivery: Where the action runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - action: Receives the owner and the payload.
  /// - Returns: A token that removes this one action; dropping it does not.
  ///
  /// > Important: As ``HandlerSource/addHandler(owner:on:file:line:_:)``.
  @available(*, deprecated, message: "use actions(for:).addHandler(owner:on:) { ... }")
  @discardableResult
  public func addAction<Owner: AnyObject & Sendable>(
    for kinds: Kind,
    owner: Owner,
    on delivery: Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ action: @escaping @Sendable (Owner, Payload) -> Void
  ) -> HandlerSubscription {
    actions(for: kinds, function: "addAction(for:owner:on:_:)")
      .addHandler(owner: owner, on: delivery, file: file, line: line, action)
  }

  /// Deprecated: use `actions(for: kinds).onMainActor.addHandler(_:)`.
  ///
  /// - Parameters:
  ///   - kinds: The kinds that fire the action; must not be empty.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - action: Receives the payload of each matching send, on the main actor.
  /// - Returns: A token that removes this one action; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/addHandler(file:line:_:)``.
  @available(*, deprecated, message: "use actions(for:).onMainActor.addHandler { ... }")
  @discardableResult
  public func addAction(
    for kinds: Kind,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ action: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> HandlerSubscription {
    actions(for: kinds, function: "addAction(for:on:_:)").onMainActor.addHandler(file: file, line: line, action)
  }

  /// Deprecated: use `actions(for: kinds).onMainActor.addHandler(owner:_:)`.
  ///
  /// - Parameters:
  ///   - kinds: The kinds that fire the action; must not be empty.
  ///   - owner: Held weakly; the action ends when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call.
  ///   - line: The `#line` of the call.
  ///   - action: Receives the owner and the payload, on the main actor.
  /// - Returns: A token that removes this one action; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/addHandler(owner:file:line:_:)``.
  @available(*, deprecated, message: "use actions(for:).onMainActor.addHandler(owner:) { ... }")
  @discardableResult
  public func addAction<Owner: AnyObject & Sendable>(
    for kinds: Kind,
    owner: Owner,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ action: @escaping @MainActor @Sendable (Owner, Payload) -> Void
  ) -> HandlerSubscription {
    actions(for: kinds, function: "addAction(for:owner:on:_:)")
      .onMainActor.addHandler(owner: owner, file: file, line: line, action)
  }
}
