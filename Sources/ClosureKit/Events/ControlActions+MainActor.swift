// The owner and `MainActorDelivery` overloads of `ControlActions.addAction`, deprecated for one
// release: `actions(for:)` returns a `HandlerSource`, which has the owner variants and the
// main-actor view.

extension ControlActions {
  /// Deprecated: use `actions(for: kinds).addHandler(owner:on:_:)`.
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
  ) -> Subscription {
    actions(for: kinds, function: "addAction(for:owner:on:_:)")
      .addHandler(owner: owner, on: delivery, file: file, line: line, action)
  }

  /// Deprecated: use `actions(for: kinds).onMainActor.addHandler(_:)`.
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
  ) -> Subscription {
    actions(for: kinds, function: "addAction(for:on:_:)").onMainActor.addHandler(file: file, line: line, action)
  }

  /// Deprecated: use `actions(for: kinds).onMainActor.addHandler(owner:_:)`.
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
  ) -> Subscription {
    actions(for: kinds, function: "addAction(for:owner:on:_:)")
      .onMainActor.addHandler(owner: owner, file: file, line: line, action)
  }
}
