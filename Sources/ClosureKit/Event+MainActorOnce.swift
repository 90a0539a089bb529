extension Event {
  /// Registers a one-shot `@MainActor` handler; it runs once, asynchronously, on the main actor.
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///   var isLoading = true
  ///   func bind(to loaded: Event<Void>) {
  ///     loaded.once(on: .mainActor) { @MainActor in self.isLoading = false }
  ///   }
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload: an unannotated closure picks the
  /// ``Delivery/mainActor`` overload, whose handler is not isolated.
  ///
  /// - Parameters:
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the payload of the first send, on the main actor.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: Exactly once, also when several threads send at the same moment; delivered as
  /// > with ``Delivery/mainActor``: never synchronously, and not at all once the token is
  /// > cancelled, even if already enqueued.
  @discardableResult
  public func once(
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Payload) -> Void
  ) -> Subscription {
    once(on: .mainActor, file: file, line: line, Self.onMainActor(handler))
  }

  /// Registers a one-shot `@MainActor` handler bound to `owner`.
  ///
  /// ```swift
  /// loaded.once(owner: self, on: .mainActor) { @MainActor screen, _ in screen.isLoading = false }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and the payload of the first send, on the main actor.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: Runs at most once, on the main actor, and not at all if the owner is deallocated
  /// > first or the token is cancelled before the delivery starts.
  @discardableResult
  public func once<Owner: AnyObject & Sendable>(
    owner: Owner,
    on delivery: MainActorDelivery,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    once(owner: owner, on: .mainActor, file: file, line: line) { owner, payload in
      MainActor.assumeIsolated { handler(owner, payload) }
    }
  }
}
