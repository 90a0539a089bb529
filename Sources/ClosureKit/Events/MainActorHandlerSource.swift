/// A source seen from the main actor: the four registrations of ``HandlerSource``, with
/// `@MainActor` closures. Reached through ``HandlerSource/onMainActor``.
///
/// ```swift
/// @MainActor final class Screen {
///   var title = ""
///   var isLoading = true
///   func bind(renamed: Event<String>, loaded: Event<Void>) {
///     renamed.onMainActor.addHandler { name in self.title = name }
///     loaded.onMainActor.once { self.isLoading = false }
///   }
/// }
/// ```
///
/// The closures are `@MainActor` without being annotated, so they may read and write main-actor
/// state directly; there is no delivery argument: they always run on the main actor.
///
/// > Important: Delivered as with ``Delivery/mainActor``: asynchronously on the main actor, in the
/// > order the source fires, never synchronously (also when fired on the main actor), and not at all
/// > once the token is cancelled, even if already enqueued. On Linux the main actor's jobs run only
/// > while the main thread serves them (`async` `main`, `dispatchMain()`, or a running RunLoop).
public struct MainActorHandlerSource<Base: HandlerSource>: Sendable {
  /// The source the handlers are registered with.
  public let base: Base

  @inlinable
  init(base: Base) {
    self.base = base
  }

  /// Registers a `@MainActor` handler that runs every time the source fires.
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
  /// - Parameters:
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives each payload, on the main actor.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: Asynchronous on the main actor, in the order the source fires; no delivery starts
  /// > after the token is cancelled.
  @discardableResult
  public func addHandler(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Base.Payload) -> Void
  ) -> HandlerSubscription {
    base.addHandler(on: .mainActor, file: file, line: line, Self.isolated(handler))
  }

  /// Registers a `@MainActor` handler bound to `owner`, which it receives strong.
  ///
  /// ```swift
  /// @MainActor final class Screen: Sendable {
  ///   var title = ""
  ///   func bind(to renamed: Event<String>) {
  ///     renamed.onMainActor.addHandler(owner: self) { screen, name in screen.title = name }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and each payload, on the main actor.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: As ``addHandler(file:line:_:)``; never called after the owner is gone.
  @discardableResult
  public func addHandler<Owner: AnyObject & Sendable>(
    owner: Owner,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, Base.Payload) -> Void
  ) -> HandlerSubscription {
    base.addHandler(owner: owner, on: .mainActor, file: file, line: line, Self.isolated(handler))
  }

  /// Registers a one-shot `@MainActor` handler.
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///   var isLoading = true
  ///   func bind(to loaded: Event<Void>) {
  ///     loaded.onMainActor.once { self.isLoading = false }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the payload of the first call, on the main actor.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: Exactly once, also when several threads fire the source at the same moment;
  /// > asynchronous on the main actor; not at all if the token is cancelled before it starts.
  @discardableResult
  public func once(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Base.Payload) -> Void
  ) -> HandlerSubscription {
    base.once(on: .mainActor, file: file, line: line, Self.isolated(handler))
  }

  /// Registers a one-shot `@MainActor` handler bound to `owner`.
  ///
  /// ```swift
  /// @MainActor final class Screen: Sendable {
  ///   var isLoading = true
  ///   func bind(to loaded: Event<Void>) {
  ///     loaded.onMainActor.once(owner: self) { screen, _ in screen.isLoading = false }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - handler: Receives the owner and the payload of the first call, on the main actor.
  /// - Returns: A token that removes the handler before it has run; dropping it does not.
  ///
  /// > Important: At most once, on the main actor, and not at all if the owner is deallocated or the
  /// > token cancelled before the delivery starts.
  @discardableResult
  public func once<Owner: AnyObject & Sendable>(
    owner: Owner,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor @Sendable (Owner, Base.Payload) -> Void
  ) -> HandlerSubscription {
    base.once(owner: owner, on: .mainActor, file: file, line: line, Self.isolated(handler))
  }

  /// A main-actor handler as the nonisolated handler that ``Delivery/mainActor`` runs on the main
  /// actor.
  static func isolated(
    _ handler: @escaping @MainActor @Sendable (Base.Payload) -> Void
  ) -> @Sendable (Base.Payload) -> Void {
    { payload in
      let payload = MainActorHandoff(payload)
      MainActor.assumeIsolated { handler(payload.value) }
    }
  }

  /// The same, for a handler bound to an owner.
  static func isolated<Owner: AnyObject & Sendable>(
    _ handler: @escaping @MainActor @Sendable (Owner, Base.Payload) -> Void
  ) -> @Sendable (Owner, Base.Payload) -> Void {
    { owner, payload in
      let payload = MainActorHandoff(payload)
      MainActor.assumeIsolated { handler(owner, payload.value) }
    }
  }
}

/// A payload handed from a ``Delivery/mainActor`` job to the main-actor handler it runs.
///
/// `@unchecked Sendable`: nothing crosses a thread here. The job already runs on the main actor
/// (`assumeIsolated` checks it), so the payload goes from the job to the handler on one thread; a
/// source whose payload is not `Sendable` (a `Notification` on Linux) hands it to the job itself,
/// and states why that is safe where it does.
struct MainActorHandoff<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
