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

  @inlinable override init() {}

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
    let candidates = state.withLock { state -> [ExtendedNode]? in
      guard state.append(entry, extended: extended) else { return nil }
      if isDiagnosing { state.sites[ObjectIdentifier(node)] = site }
      return state.sweepCandidates(newOwners: newOwners)
    }
    if node.index < 0 { _ = node.end() }  // not appended: the source is closed
    if isDiagnosing, newOwners == 1, node.isOwnerGone {
      // The caller still holds the owner, so a weak reference that reads `nil` means the owner is
      // being deinitialised: the handler can never run.
      DiagnosticsSwitch.reportDeadOwner(at: site)
    }
    if let candidates { sweep(candidates) }
    return node
  }

  // MARK: Sending

  /// Calls every live handler, in registration order.
  ///
  /// With one live handler, plain and not a one-shot (the common case), the send copies that
  /// handler under the lock instead of the entry array: a call from the array retains and releases
  /// the handler's context anyway, so the fast path saves the array's retain and release.
  @inlinable
  func send(_ payload: Payload) {
    var snapshot = ContiguousArray<Entry?>()
    let single = state.withLock { state -> (@Sendable (Payload) -> Void)? in
      if state.entries.count == 1, let only = state.entries[0], only.node.isPlain, !only.node.isOnce,
        !only.node.hasEnded
      {
        return only.handler
      }
      snapshot = state.entries
      return nil
    }
    if let single {
      single(payload)
    } else {
      deliver(payload, to: snapshot)
    }
  }

  /// Calls every live handler whose tag matches, in registration order.
  @inlinable
  func send(_ payload: Payload, matching match: (Tag) -> Bool) {
    let snapshot = state.withLock { state in
      var matching = ContiguousArray<Entry?>()
      for case let entry? in state.entries where match(entry.tag) { matching.append(entry) }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// Calls the live handlers of `snapshot`, then removes those that ended on the way.
  @inlinable
  func deliver(_ payload: Payload, to snapshot: ContiguousArray<Entry?>) {
    var ended: [HandlerNode] = []
    for case let entry? in snapshot {
      let node = entry.node
      guard node.isPlain else {
        deliver(payload, to: entry, ended: &ended)
        continue
      }
      if node.isOnce {
        guard node.end() else { continue }
        ended.append(node)
      } else if node.hasEnded {
        continue
      }
      entry.handler(payload)
    }
    if !ended.isEmpty { remove(ended) }
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
        if node.end() { remove([node]) }
        return
      }
      if node.isOnce {
        guard node.end() else { return }
        remove([node])
      } else if node.hasEnded {
        return
      }
      handler(payload)
    }
  }

  // MARK: Removal

  /// Removes ended nodes; releases their entries after the lock is dropped.
  @inlinable
  func remove(_ nodes: [HandlerNode]) {
    let garbage = state.withLock { state in nodes.map { state.remove($0) } }
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
    let garbage = state.withLock { $0.close() }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  // MARK: SubscriptionSource

  override package func cancel(_ subscription: Subscription) {
    guard let node = subscription as? HandlerNode else { failPrecondition("registry: a foreign token") }
    // Already ended: whoever ended it removes it (a one-shot's send, the owner sweep, `close()`).
    guard node.end() else { return }
    let garbage = state.withLock { $0.remove(node) }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Cancels a run of this list's tokens (a bag's) under one lock. The nodes are removed newest
  /// first (a bag's tokens are usually the newest entries, each then taken off the end instead of
  /// leaving a hole) and their entries released in the tokens' order, as cancelling each token in
  /// turn would, also when a token is stored twice.
  override package func cancel(_ subscriptions: ArraySlice<Subscription>) {
    var nodes: [HandlerNode] = []
    nodes.reserveCapacity(subscriptions.count)
    for subscription in subscriptions {
      guard let node = subscription as? HandlerNode else { failPrecondition("registry: a foreign token") }
      if node.end() { nodes.append(node) }
    }
    guard !nodes.isEmpty else { return }
    var garbage = state.withLock { state in nodes.reversed().map { state.remove($0) } }
    garbage.reverse()
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
      state.entries.reduce(0) { count, entry in count + (entry.map { match($0.tag) ? 1 : 0 } ?? 0) }
    }
  }

  /// Where each live handler was registered, in registration order; `nil` for a handler
  /// registered while diagnostics were off.
  @inlinable
  func liveSites() -> [RegistrationSite?] {
    sweepOrphans()
    return state.withLock { state in
      state.entries.compactMap { $0 }.map { state.sites[ObjectIdentifier($0.node)] }
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  @inlinable
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = state.withLock { state -> [Entry?] in
      // Collected first, removed after the loop (a removal may compact the entries).
      var dropped: [HandlerNode] = []
      for position in state.entries.indices where state.entries[position] != nil {
        if !body(&state.entries[position]!.tag) { dropped.append(state.entries[position]!.node) }
      }
      return dropped.map { node in
        _ = node.end()
        return state.remove(node)
      }
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Checks the registry's invariants (see ``HandlerListState``); for tests.
  package func verifyInvariants() -> Bool {
    state.withLock { $0.verifyInvariants() }
  }
}
