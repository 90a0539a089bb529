extension ControlActions {
  /// Registers a `@MainActor` action for every kind in `kinds`; it runs asynchronously on the main
  /// actor.
  ///
  /// ```swift
  /// actions.addAction(for: .touchUpInside, on: .mainActor) { @MainActor _ in label.text = "Saved" }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - kinds: The kinds that fire the action; must not be empty.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - action: Receives the payload of each matching send, on the main actor.
  /// - Returns: A token that removes this one action; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: in send order, never synchronously, and
  /// > not at all once the token is cancelled, even if already enqueued.
  @discardableResult
  public func addAction(
    for kinds: Kind,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ action: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> Subscription {
    addAction(for: kinds, on: .mainActor, file: file, line: line) { payload in
      MainActor.assumeIsolated { action(payload) }
    }
  }

  /// Registers a `@MainActor` action bound to `owner`.
  ///
  /// ```swift
  /// actions.addAction(for: .touchUpInside, owner: self, on: .mainActor) { @MainActor screen, _ in
  ///   screen.submit()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - kinds: The kinds that fire the action; must not be empty.
  ///   - owner: Held weakly; the action ends when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - action: Receives the owner and the payload, on the main actor.
  /// - Returns: A token that removes this one action; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  @discardableResult
  public func addAction<Owner: AnyObject & Sendable>(
    for kinds: Kind,
    owner: Owner,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ action: @escaping @MainActor @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    addAction(for: kinds, owner: owner, on: .mainActor, file: file, line: line) { owner, payload in
      MainActor.assumeIsolated { action(owner, payload) }
    }
  }
}
