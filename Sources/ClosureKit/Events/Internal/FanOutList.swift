/// The registry in front of one outside observer (a `NotificationCenter` block observer): every
/// handler of one source shares that observer, which forwards each call to ``forward(_:)``. The
/// observer is attached after the first registration (``attach(_:)``) and detached when the last
/// handler is removed; the list is then closed, and a registration that finds it closed is refused
/// (`nil`), so that its caller registers on a new list.
///
/// The same registry as ``HandlerList`` (a ``RegistryHost``): the same nodes, owner sweep, removal
/// and send. Its state adds the upstream observer to the registry, under the same lock, so that
/// "the last handler is gone" and "close the list" are one step.
///
/// The payload is an object, erased (``FanOutPayload``): the list is not generic, so that this
/// module compiles it for its one payload type. A generic list, called from `ClosureKitFoundation`,
/// ran unspecialised (`@inlinable` `package` code is not inlined across modules), twice as slow a
/// post as Foundation's own observers; the client casts the object back with a checked cast.
///
/// `FanOutListTests` shows its use: add, attach, forward, and the detach with the last handler.
///
/// `@unchecked Sendable`: its only state is `state`, a ``Locked``.
package final class FanOutList: HandlerListSource, RegistryHost, @unchecked Sendable {
  typealias Tag = Void
  typealias Payload = FanOutPayload

  /// The registry and the upstream observer.
  let state = Locked(FanOutState())

  /// Creates an empty list, open, with no upstream observer yet.
  package init() {
    // Checked casts: the closures are constants that only this init sets, on this very list.
    super.init(
      removeEnded: { source, nodes in (source as! FanOutList).remove(nodes) },
      removeOneEnded: { source, node in (source as! FanOutList).remove(node) }
    )
  }

  @usableFromInline
  func withRegistry<Result>(_ body: (inout HandlerListState<FanOutPayload, Void>) -> Result) -> Result {
    state.withLock { state in
      return body(&state.registry)
    }
  }

  /// Registers `handler` and returns its token, or `nil` if the list has closed (its last handler
  /// was removed): the caller then registers on a new list.
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - site: Where the registration was made.
  ///   - handler: The closure, with its owner if it has one.
  package func add<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: Delivery,
    site: RegistrationSite,
    _ handler: SourceHandler<Owner, FanOutPayload>
  ) -> HandlerSubscription? {
    // The registry's one registration path; refused (`nil`) when the list has closed: the node
    // was never in the list, and its token is never handed out.
    let (entry, extended) = makeEntry(tag: (), once: once, delivery: delivery, handler)
    let (node, isAppended) = register(entry, extended: extended, site: site)
    return isAppended ? node : nil
  }

  /// Records the upstream observer's `detach`, to be called when the last handler is removed.
  /// Returns `false` if that already happened (every handler registered so far has gone): the
  /// caller then calls `detach` itself.
  package func attach(_ detach: @escaping @Sendable () -> Void) -> Bool {
    state.withLock { $0.attach(detach) }
  }

  /// Calls every live handler with `payload`, in registration order: what the upstream observer
  /// does with each call.
  package func forward(_ payload: FanOutPayload) {
    send(payload)
  }

  /// Ends every handler and closes the list, without detaching: the upstream observer is gone
  /// already (its center was deallocated, which releases the handlers as Foundation releases its
  /// blocks). Idempotent.
  package func upstreamEnded() {
    let garbage = state.withLock { $0.upstreamEnded() }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Whether the list has closed: its last handler was removed, and it takes no more.
  package var isClosed: Bool {
    state.withLock { $0.registry.isClosed }
  }

  /// Checks the list's invariants (see ``FanOutState``); for tests.
  package func verifyInvariants() -> Bool {
    state.withLock { $0.verifyInvariants() }
  }

  /// Closes the list and detaches its upstream observer once its last handler is gone.
  @usableFromInline
  func didRemoveHandlers() {
    let (garbage, detach) = state.withLock { $0.closeIfEmpty() }
    withExtendedLifetime(garbage) {}  // released after the lock
    detach?()
  }
}

/// A ``FanOutList``'s state: its registry and its upstream observer, changed together under the
/// list's lock by transitions that return what to do after it.
///
/// Invariants (``verifyInvariants()``): an attached observer belongs to an open list with
/// handlers, or to one whose last handler is being removed; once `detached`, the list is closed.
struct FanOutState {
  /// Where the upstream observer is.
  enum Upstream {
    /// Not attached yet: the first registration is adding it.
    case pending
    /// Attached; the closure removes it.
    case attached(@Sendable () -> Void)
    /// Removed, or never to be attached.
    case detached
  }

  /// The handlers.
  var registry = HandlerListState<FanOutPayload, Void>()
  /// The upstream observer.
  var upstream = Upstream.pending

  /// Records the observer's `detach`; `false` if the list has already closed.
  mutating func attach(_ detach: @escaping @Sendable () -> Void) -> Bool {
    guard case .pending = upstream else { failPrecondition("FanOutList: attached twice") }
    guard !registry.isClosed else {
      upstream = .detached
      return false
    }
    upstream = .attached(detach)
    assert(verifyInvariants())
    return true
  }

  /// After a removal: if no handler is left, closes the registry and returns the entries to
  /// release and the observer's `detach` to call (`nil` while it is still being attached: the
  /// attaching thread finds the list closed and detaches it).
  mutating func closeIfEmpty() -> (ContiguousArray<HandlerEntry<FanOutPayload, Void>>, (@Sendable () -> Void)?) {
    guard registry.liveCount == 0, !registry.isClosed else { return ([], nil) }
    let garbage = registry.close()
    var detach: (@Sendable () -> Void)?
    if case .attached(let attached) = upstream {
      detach = attached
      upstream = .detached
    }
    assert(verifyInvariants())
    return (garbage, detach)
  }

  /// The upstream observer is gone: closes the registry (ending every handler) and drops the
  /// observer's `detach` uncalled. Returns what to release after the lock.
  mutating func upstreamEnded() -> (ContiguousArray<HandlerEntry<FanOutPayload, Void>>, Upstream) {
    let garbage = registry.isClosed ? [] : registry.close()
    let dropped = upstream
    upstream = .detached
    assert(verifyInvariants())
    return (garbage, dropped)
  }

  /// Checks the invariants listed on the type; traps on the first broken one. Returns `true`, so
  /// that it can stand in an `assert`.
  func verifyInvariants() -> Bool {
    _ = registry.verifyInvariants()
    if case .detached = upstream {
      precondition(registry.isClosed, "FanOutList: detached while open")
    }
    if case .attached = upstream {
      precondition(!registry.isClosed, "FanOutList: closed with its observer attached")
    }
    return true
  }
}

/// What a ``FanOutList`` hands its handlers: the client's own object (a notification's box), which
/// each handler casts back to its type.
package typealias FanOutPayload = any AnyObject & Sendable
