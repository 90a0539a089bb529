// The one registry: every multicast source's handlers (an `Event`'s, a `ControlActions`', an
// `Observed` box's, those of a `NotificationCenter` name) live in a `HandlerListState` of its host,
// and every registration, removal, owner sweep and delivery is written once, here, for every host.

/// An object whose lock guards a ``HandlerListState``: a ``HandlerList`` (the lock holds the state
/// alone), an `ObservedStorage` (the state sits beside the box's value, under the same lock, so
/// that a write stores the value and takes its observers in one critical section) or a
/// ``FanOutList`` (the state sits beside the upstream observer it shares).
///
/// The host's nodes answer to it (it is their ``HandlerListSource``), and its `init` hands
/// ``HandlerListSource`` the closures that remove ended nodes, as this extension's `remove`.
/// Everything is `@inlinable`, so that a client compiles it for its own payload and tag types.
@usableFromInline
protocol RegistryHost<Payload, Tag>: HandlerListSource {
  /// What a send hands each handler.
  associatedtype Payload: Sendable
  /// Per-handler data (the kinds of a control action, an observer's options; `Void` for events).
  associatedtype Tag: Sendable

  /// Runs `body` on the registry under the host's lock; `body` must not call back into the host.
  func withRegistry<Result>(_ body: (inout HandlerListState<Payload, Tag>) -> Result) -> Result

  /// Called after every removal, outside the lock: a `FanOutList` detaches its upstream observer
  /// when its last handler is gone. The other hosts do nothing.
  func didRemoveHandlers()

  /// What a registration's critical section leaves for after the lock: the registry's outcome
  /// (``RegistrationOutcome``), or, for an `Observed` box, that and its initial callback,
  /// scheduled in the same critical section, in its place among the writes.
  associatedtype Registered: RegistrationResult = RegistrationOutcome

  /// The critical section of a registration: under the host's lock, the registry's
  /// ``HandlerListState/register(_:extended:site:)`` and whatever the host does with it.
  func registerLocked(
    _ entry: __owned HandlerEntry<Payload, Tag>,
    extended: ExtendedNode?,
    site: RegistrationSite?
  ) -> Registered

  /// After a registration's lock and ``finish(_:of:extended:site:)``: what the critical section
  /// left (an `Observed` box delivers the initial callback).
  func didRegister(_ registered: __shared Registered)

  /// Whether the host's registrations go through ``registerLocked(_:extended:site:)`` and
  /// ``didRegister(_:)`` (an `Observed` box); `false` for the hosts whose critical section is the
  /// registry's alone, which ``RegistryHost/register(_:extended:site:)`` then makes with
  /// ``withRegistry(_:)`` directly. A registration made in unspecialised code (an `owner:` one,
  /// reached through the generic `HandlerSource` methods) calls a host's requirements through
  /// its witness table: the generic `Registered` result cost the `add-cancel-owner` row 0.02.
  static var hasOwnRegistration: Bool { get }
}

/// What a registration's critical section returns: at least the registry's outcome.
@usableFromInline
protocol RegistrationResult {
  /// What the registry left to do.
  var outcome: RegistrationOutcome { get }
}

extension RegistrationOutcome: RegistrationResult {
  @inlinable
  var outcome: RegistrationOutcome { self }
}

extension RegistryHost where Registered == RegistrationOutcome {
  /// The registry's registration alone, under the host's lock: every host but an `Observed` box.
  @inlinable @inline(__always)
  func registerLocked(
    _ entry: __owned HandlerEntry<Payload, Tag>,
    extended: ExtendedNode?,
    site: RegistrationSite?
  ) -> RegistrationOutcome {
    withRegistry { $0.register(entry, extended: extended, site: site) }
  }

  /// Nothing left after the lock.
  @inlinable @inline(__always)
  func didRegister(_ registered: __shared RegistrationOutcome) {}

  /// The registry's critical section alone.
  @inlinable
  static var hasOwnRegistration: Bool { false }
}

extension RegistryHost {
  @usableFromInline typealias Entry = HandlerEntry<Payload, Tag>

  // MARK: Registration
  //
  // The one registration path of every host: `makeEntry` (a `SourceHandler`, plain or bound to
  // its owner, becomes an entry and its node), `registerLocked` (the host's critical section,
  // around `HandlerListState.register`), `finish` (after the lock: end a refused node, report a
  // dead owner, sweep), `didRegister` (what the host's critical section left).

  /// Registers `handler` with `tag` and returns its token: ended at once when the source is gone.
  ///
  /// The handler is an owned parameter switched on as a whole (``makeEntry(tag:once:delivery:_:)``),
  /// so its closure and owner move into the entry. Always inlined, so that the enum the caller built
  /// is known here and the switch folds away.
  @inlinable @inline(__always)
  func add<Owner: AnyObject & Sendable>(
    tag: Tag,
    once: Bool,
    delivery: __owned Delivery,
    site: RegistrationSite?,
    _ handler: __owned SourceHandler<Owner, Payload>
  ) -> HandlerSubscription {
    let (entry, extended) = makeEntry(tag: tag, once: once, delivery: delivery, handler)
    return register(entry, extended: extended, site: site).node
  }

  /// The entry of `handler` and its node when that is an ``ExtendedNode``: the one place a
  /// ``SourceHandler`` turns into a registry entry. Taken from a field of a struct, the switch
  /// copied the closure and the owner (a retain and a release each, measured in the add + cancel rows);
  /// an owned parameter moves them.
  @inlinable @inline(__always)
  func makeEntry<Owner: AnyObject & Sendable>(
    tag: Tag,
    once: Bool,
    delivery: __owned Delivery,
    _ handler: __owned SourceHandler<Owner, Payload>
  ) -> (Entry, ExtendedNode?) {
    switch handler {
    case .plain(let handler):
      return makeEntry(tag: tag, once: once, delivery: delivery, handler: handler)
    case .owned(let owner, let handler):
      let (entry, node) = makeEntry(tag: tag, once: once, owner: owner, delivery: delivery, handler: handler)
      return (entry, node)
    }
  }

  /// The entry of a handler without an owner, and its node when that is an ``ExtendedNode``.
  @inlinable @inline(__always)
  func makeEntry(
    tag: Tag,
    once: Bool,
    delivery: __owned Delivery,
    handler: @escaping @Sendable (Payload) -> Void
  ) -> (Entry, ExtendedNode?) {
    if delivery.isImmediate {
      return (Entry(node: HandlerNode(source: self, isOnce: once, isPlain: true), tag: tag, handler: handler), nil)
    }
    let node = ExtendedNode(source: self, isOnce: once, delivery: delivery)
    return (Entry(node: node, tag: tag, handler: handler), node)
  }

  /// The entry of a handler bound to `owner`, and its node.
  @inlinable @inline(__always)
  func makeEntry<Owner: AnyObject & Sendable>(
    tag: Tag,
    once: Bool,
    owner: Owner,
    delivery: __owned Delivery,
    handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> (Entry, ExtendedNode) {
    let node = OwnedNode(source: self, isOnce: once, owner: owner, delivery: delivery)
    // The owner is read through the node, strongly for the call: it cannot go while its handler
    // runs. The entry holds the node and the node does not hold the entry: no cycle.
    let call: @Sendable (Payload) -> Void = { [node] payload in
      if let owner = node.owner { handler(owner, payload) }
    }
    return (Entry(node: node, tag: tag, handler: call), node)
  }

  /// Appends `entry` and returns its node, the token, and whether it was appended: `false`, having
  /// ended the node, if the source is gone (closed). `site` is recorded while diagnostics are on;
  /// `nil` (an `observe` call) does not read the switch.
  @inlinable @inline(__always)
  func register(
    _ entry: __owned Entry,
    extended: ExtendedNode?,
    site: RegistrationSite?
  ) -> (node: HandlerNode, isAppended: Bool) {
    let node = entry.node
    let recorded: RegistrationSite? = if let site, DiagnosticsSwitch.isEnabled { site } else { nil }
    guard Self.hasOwnRegistration else {
      let outcome = withRegistry { $0.register(entry, extended: extended, site: recorded) }
      finish(outcome, of: node, extended: extended, site: recorded)
      return (node, outcome.isAppended)
    }
    let registered = registerLocked(entry, extended: extended, site: recorded)
    let isAppended = registered.outcome.isAppended
    finish(registered.outcome, of: node, extended: extended, site: recorded)
    didRegister(registered)
    return (node, isAppended)
  }

  /// After a registration's lock: ends its node if the source was closed, reports an owner
  /// already gone while diagnostics are on (`site` is then set), and sweeps dead owners.
  @inlinable
  func finish(_ outcome: RegistrationOutcome, of node: HandlerNode, extended: ExtendedNode?, site: RegistrationSite?) {
    guard outcome.isAppended else {
      _ = node.end()  // the source is closed (a `FanOutList`'s caller registers on a new list)
      return
    }
    if let site, extended?.isOwnerBound == true, node.isOwnerGone {
      // The caller still holds the owner, so a weak reference that reads `nil` means the owner is
      // being deinitialised: the handler can never run.
      DiagnosticsSwitch.reportDeadOwner(at: site)
    }
    if let candidates = outcome.sweep { sweep(candidates) }
  }

  // MARK: Delivering

  /// The uncommon path of a delivery: owner checks and asynchronous delivery.
  @inlinable @inline(never)
  func deliver(_ payload: Payload, to entry: Entry, ended: inout [HandlerNode]) {
    // Checked: only plain nodes are not ``ExtendedNode``s (``HandlerNode/isPlain``).
    guard let node = entry.node as? ExtendedNode else {
      failPrecondition("registry: a non-plain node of a plain class")
    }
    if node.isOwnerGone {
      if node.end() { ended.append(node) }
      return
    }
    if node.delivery.isImmediate {
      if node.isOnce {
        guard node.end() else { return }
        ended.append(node)
      } else if node.hasEnded {
        return
      }
      entry.handler(payload)
      return
    }
    // The job keeps its own reference to the handler: a delivery queued before a cancel keeps the
    // captures until it is dropped, unrun.
    let handler = entry.handler
    node.delivery.execute { [self] in
      if node.isOwnerGone {
        if node.end() { remove(node) }
        return
      }
      if node.isOnce {
        guard node.end() else { return }
        remove(node)
      } else if node.hasEnded {
        return
      }
      handler(payload)
    }
  }

  // MARK: Removal

  /// Removes ended nodes, newest first (a bag's tokens are usually the newest entries, each then
  /// taken off the end instead of leaving a hole); releases their entries after the lock is
  /// dropped, in the order of `nodes` (as cancelling each token of a bag in turn would).
  @inlinable
  func remove(_ nodes: [HandlerNode]) {
    if nodes.count == 1 { return remove(nodes[0]) }
    var garbage = withRegistry { state in nodes.reversed().map { state.remove($0) } }
    garbage.reverse()
    withExtendedLifetime(garbage) {}  // released after the lock
    didRemoveHandlers()
  }

  /// Removes an ended node; releases its entry after the lock is dropped.
  @inlinable
  func remove(_ node: HandlerNode) {
    let garbage = withRegistry { $0.remove(node) }
    withExtendedLifetime(garbage) {}  // released after the lock
    didRemoveHandlers()
  }

  /// Nothing to do after a removal: the hosts other than `FanOutList`.
  @inlinable @inline(__always)
  func didRemoveHandlers() {}

  /// Ends and removes every owner-bound handler whose owner is gone.
  ///
  /// - Complexity: O(k) in the number of live handlers registered with an owner.
  @inlinable
  func sweepOrphans() {
    let candidates = withRegistry { state -> [ExtendedNode] in
      state.registrationsSinceSweep = 0
      return state.ownerBound
    }
    sweep(candidates)
  }

  /// Ends and removes the handlers of `candidates` whose owner is gone.
  ///
  /// The owners are checked outside the lock: reading a weak reference makes a strong copy, and if
  /// another thread dropped the owner's last reference meanwhile, releasing that copy would run the
  /// owner's deinit (which may cancel its own token, taking this lock) under the lock.
  @inlinable
  func sweep(_ candidates: [ExtendedNode]) {
    let orphans = candidates.filter { $0.isOwnerGone && $0.end() }
    guard !orphans.isEmpty else { return }
    remove(orphans)
  }

  /// Ends every handler: called by the source's deinit.
  @inlinable
  func close() {
    let garbage = withRegistry { $0.close() }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  // MARK: Queries and tags

  /// The number of live handlers.
  @inlinable
  func count() -> Int {
    sweepOrphans()
    return withRegistry { $0.liveCount }
  }

  /// The number of live handlers whose tag matches.
  @inlinable
  func count(matching match: (Tag) -> Bool) -> Int {
    sweepOrphans()
    return withRegistry { state in
      state.entries.indices.reduce(0) { count, position in
        count + (state.isLive(at: position) && match(state.entries[position].tag) ? 1 : 0)
      }
    }
  }

  /// Where each live handler was registered, in registration order; `nil` for a handler
  /// registered while diagnostics were off.
  @inlinable
  func liveSites() -> [RegistrationSite?] {
    sweepOrphans()
    return withRegistry { state in
      state.entries.filter { !$0.isHole }.map { state.sites[ObjectIdentifier($0.node)] }
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  @inlinable
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = withRegistry { state -> (Entry?, [Entry?]) in
      // A change of the handlers' tags is a change of the registry: a snapshot or a cache of the
      // old tags (an `Observed` box's single observer) must not pass for the current one.
      state.changed()
      // Collected first, removed after the loop (a removal may compact the entries); the first in
      // a variable of its own, so that the common removal of one handler allocates nothing.
      var first: HandlerNode?
      var more: [HandlerNode] = []
      for position in state.entries.indices where state.isLive(at: position) {
        guard !body(&state.entries[position].tag) else { continue }
        let node = state.entries[position].node
        if first == nil { first = node } else { more.append(node) }
      }
      guard let first else { return (nil, []) }
      _ = first.end()
      let removedFirst = state.remove(first)
      return (
        removedFirst,
        more.map { node in
          _ = node.end()
          return state.remove(node)
        }
      )
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Checks the registry's invariants (see ``HandlerListState``); for tests.
  package func verifyInvariants() -> Bool {
    withRegistry { $0.verifyInvariants() }
  }
}
