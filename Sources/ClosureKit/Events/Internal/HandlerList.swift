/// The thread-safe, ordered handler list behind ``Event`` and ``ControlActions``: the registry.
///
/// Its state is a ``HandlerListState`` behind a ``Locked``; every change is a method of that state,
/// made under the lock, that returns what to release or call, and that happens after the lock is
/// dropped (through `withExtendedLifetime` or by calling the returned handlers).
///
/// A send copies the entry array under the lock (one reference-count increment, no element copy),
/// then calls the handlers outside it. Removal leaves a hole that a later compaction closes, so add
/// and cancel are amortised O(1). Tokens hold the list strongly (it is small); the user-facing
/// source calls ``close()`` from its deinit, which ends every handler.
///
/// Written in safe Swift: the entries are typed by the payload, nodes are found by their index and
/// checked by identity, and the one downcast (to ``ExtendedNode``, on the uncommon path) is checked.
/// Everything is `@inlinable`, so that a client compiles it for its own payload and tag types.
///
/// `@unchecked Sendable`: its only state is `state`, a ``Locked``.
@usableFromInline
final class HandlerList<Payload: Sendable, Tag: Sendable>: HandlerListSource, @unchecked Sendable {
  @usableFromInline typealias Entry = HandlerEntry<Payload, Tag>

  @usableFromInline let state = Locked(HandlerListState<Payload, Tag>())

  /// `state.withLock` for a change of the entries.
  @inlinable
  func withStateChange<Result>(_ body: (inout HandlerListState<Payload, Tag>) -> Result) -> Result {
    state.withLock { state in
      return body(&state)
    }
  }

  @inlinable init() {
    // Checked casts: the closures are constants that only this init sets, on this very list.
    super.init(
      removeEnded: { source, nodes in (source as! HandlerList<Payload, Tag>).remove(nodes) },
      removeOneEnded: { source, node in (source as! HandlerList<Payload, Tag>).remove(node) }
    )
  }

  // MARK: Registration

  /// Registers a handler without an owner and returns its token.
  @inlinable
  func add(
    tag: Tag,
    once: Bool,
    delivery: __owned Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    if delivery.isImmediate {
      let node = HandlerNode(source: self, isOnce: once, isPlain: true)
      return register(Entry(node: node, tag: tag, handler: handler), extended: nil, site: site)
    }
    let node = ExtendedNode(source: self, isOnce: once, delivery: delivery)
    return register(Entry(node: node, tag: tag, handler: handler), extended: node, site: site)
  }

  /// Registers a handler bound to `owner` and returns its token.
  @inlinable
  func add<Owner: AnyObject & Sendable>(
    tag: Tag,
    once: Bool,
    owner: Owner,
    delivery: __owned Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    let node = OwnedNode(source: self, isOnce: once, owner: owner, delivery: delivery)
    // The owner is read through the node, strongly for the call: it cannot go while its handler
    // runs. The entry holds the node and the node does not hold the entry: no cycle.
    let call: @Sendable (Payload) -> Void = { [node] payload in
      if let owner = node.owner { handler(owner, payload) }
    }
    return register(Entry(node: node, tag: tag, handler: call), extended: node, site: site)
  }

  /// Appends `entry` and returns its node, the token; ends the node instead if the source is gone.
  @inlinable
  func register(_ entry: __owned Entry, extended: ExtendedNode?, site: RegistrationSite) -> Subscription {
    let node = entry.node
    let isDiagnosing = DiagnosticsSwitch.isEnabled
    let newOwners = extended?.isOwnerBound == true ? 1 : 0
    // The outcome comes out of the lock with it: `node.index` is the lock's to read.
    let (isAppended, candidates) = withStateChange { state -> (Bool, [ExtendedNode]?) in
      guard state.append(entry, extended: extended) else { return (false, nil) }
      if isDiagnosing { state.sites[ObjectIdentifier(node)] = site }
      return (true, state.sweepCandidates(newOwners: newOwners))
    }
    if !isAppended { _ = node.end() }  // the source is closed
    if isDiagnosing, newOwners == 1, node.isOwnerGone {
      // The caller still holds the owner, so a weak reference that reads `nil` means the owner is
      // being deinitialised: the handler can never run.
      DiagnosticsSwitch.reportDeadOwner(at: site)
    }
    if let candidates { sweep(candidates) }
    return node
  }

  // MARK: Sending

  /// Calls every live handler whose tag matches, in registration order.
  @inlinable
  func send(_ payload: Payload, matching match: (Tag) -> Bool) {
    let snapshot = state.withLock { state in
      var matching = ContiguousArray<Entry>()
      for position in state.entries.indices where state.isLive(at: position) && match(state.entries[position].tag) {
        matching.append(state.entries[position])
      }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// The uncommon path of a send: owner checks and asynchronous delivery.
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
    var garbage = withStateChange { state in nodes.reversed().map { state.remove($0) } }
    garbage.reverse()
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Removes an ended node; releases its entry after the lock is dropped.
  @inlinable
  func remove(_ node: HandlerNode) {
    let garbage = withStateChange { $0.remove(node) }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Ends and removes every owner-bound handler whose owner is gone.
  ///
  /// - Complexity: O(k) in the number of live handlers registered with an owner.
  @inlinable
  func sweepOrphans() {
    let candidates = state.withLock { state -> [ExtendedNode] in
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
    let garbage = withStateChange { $0.close() }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  // MARK: Queries and tags

  /// The number of live handlers.
  @inlinable
  func count() -> Int {
    sweepOrphans()
    return state.withLock { $0.liveCount }
  }

  /// The number of live handlers whose tag matches.
  @inlinable
  func count(matching match: (Tag) -> Bool) -> Int {
    sweepOrphans()
    return state.withLock { state in
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
    return state.withLock { state in
      state.entries.filter { !$0.isHole }.map { state.sites[ObjectIdentifier($0.node)] }
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  @inlinable
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = withStateChange { state -> (Entry?, [Entry?]) in
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
    state.withLock { $0.verifyInvariants() }
  }
}
