extension Event {
  /// Registers a `@MainActor` handler; it always runs asynchronously on the main actor.
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///   var title = ""
  ///   func bind(to renamed: Event<String>) {
  ///     renamed.addHandler(on: .mainActor) { @MainActor name in self.title = name }
  ///   }
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload.
  ///
  /// - Parameters:
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives each payload on the main actor.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: in send order, never synchronously,
  /// > and not at all once the token is cancelled, even if already enqueued.
  @discardableResult
  public func addHandler(
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> Subscription {
    addHandler(on: .mainActor, file: file, line: line, Self.onMainActor(handler))
  }

  /// Registers a `@MainActor` handler bound to `owner`.
  ///
  /// ```swift
  /// renamed.addHandler(owner: self, on: .mainActor) { @MainActor screen, name in screen.title = name }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and each payload on the main actor.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``.
  @discardableResult
  public func addHandler<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    addHandler(owner: owner, on: .mainActor, file: file, line: line) { owner, payload in
      MainActor.assumeIsolated { handler(owner, payload) }
    }
  }

  /// Adapts a main-actor handler for ``Delivery/mainActor``, which runs it on the main actor.
  static func onMainActor(
    _ handler: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> @Sendable (Payload) -> Void {
    { payload in MainActor.assumeIsolated { handler(payload) } }
  }
}
