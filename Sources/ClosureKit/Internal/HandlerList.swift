public import Synchronization

/// The layout of `HandlerNode.bits`. Not nested in the generic node, so that reading a constant
/// needs no generic metadata on the send path.
@usableFromInline
enum NodeBits {
  /// Set once the handler has ended: cancelled, run as a one-shot, owner gone, or source gone.
  @inlinable static var ended: Int { 1 }
  /// The handler runs at most once.
  @inlinable static var once: Int { 2 }
  /// The node is an ``ExtendedHandlerNode`` (owner or non-immediate delivery).
  @inlinable static var extended: Int { 4 }
  /// The node's index in `State.entries` is stored above the flag bits.
  @inlinable static var indexShift: Int { 3 }
}

/// One registered handler of a ``HandlerList``.
///
/// The handler is a `let`, so a send calls it without copying it; what it captured is released
/// when the node itself is released: when it has left the list, every running send's snapshot,
/// and its ``Subscription``, which the list detaches when the node ends.
///
/// `@unchecked Sendable`: `bits` is atomic; `tag` and `token` are read and written only under the
/// list's lock.
@usableFromInline
class HandlerNode<Payload: Sendable, Tag: Sendable>: @unchecked Sendable {
  /// Flag bits (``NodeBits``) and, above `NodeBits.indexShift`, the index in the list's entries.
  @usableFromInline final let bits: Atomic<Int>
  /// The handler.
  @usableFromInline final let handler: @Sendable (Payload) -> Void
  /// Per-handler data of the source (the kinds of a control action); `Void` for events.
  @usableFromInline @exclusivity(unchecked) final var tag: Tag
  /// The token that refers to this node, while both live; cleared by the token's deinit.
  ///
  /// Unretained, and only ever used through `_withUnsafeGuaranteedRef` under the list's lock: a
  /// strong copy could become the token's last reference (its owner drops it on another thread
  /// meanwhile), and releasing it would run the token's deinit, which takes the list's lock, on the
  /// thread that holds it (a deadlock, seen under ThreadSanitizer in
  /// `concurrentAddCancelAndSendDeliverExactlyToHandlersLiveAcrossEverySend`). The token's
  /// memory stays valid while the lock is held: its deinit waits for the lock before it returns.
  @usableFromInline @exclusivity(unchecked) final var token: Unmanaged<Subscription>?

  @usableFromInline
  init(handler: @escaping @Sendable (Payload) -> Void, tag: Tag, flags: Int) {
    self.bits = Atomic(flags)
    self.handler = handler
    self.tag = tag
    self.token = nil
  }

  /// Marks the node ended. Returns `true` for the one caller that ended it.
  @inlinable
  final func claimEnd() -> Bool {
    var current = bits.load(ordering: .acquiring)
    while current & NodeBits.ended == 0 {
      let (exchanged, original) = bits.compareExchange(
        expected: current,
        desired: current | NodeBits.ended,
        ordering: .acquiringAndReleasing
      )
      if exchanged { return true }
      current = original
    }
    return false
  }

  /// This node as an ``ExtendedHandlerNode``, if it is one.
  @inlinable
  final var extended: ExtendedHandlerNode<Payload, Tag>? {
    guard bits.load(ordering: .relaxed) & NodeBits.extended != 0 else { return nil }
    return unsafeDowncast(self, to: ExtendedHandlerNode<Payload, Tag>.self)
  }

  /// Whether the handler will not run again: ended, or its owner is gone.
  @inlinable
  final var isEnded: Bool {
    if bits.load(ordering: .acquiring) & NodeBits.ended != 0 { return true }
    return extended?.isOrphaned ?? false
  }
}

/// A handler registered with an owner or with a non-immediate delivery: the uncommon case, kept out
/// of ``HandlerNode`` so that the common node stays small.
///
/// `@unchecked Sendable`: as ``HandlerNode``; the added properties are immutable (`owner` is a
/// weak reference, which the runtime reads and clears atomically).
@usableFromInline
final class ExtendedHandlerNode<Payload: Sendable, Tag: Sendable>: HandlerNode<Payload, Tag>, @unchecked Sendable {
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline weak let owner: (any AnyObject & Sendable)?
  /// Whether the handler was registered with an owner.
  @usableFromInline let isOwnerBound: Bool
  /// Where the handler runs.
  @usableFromInline let delivery: Delivery
  /// The position in `HandlerList.State.ownerBound`, or -1; guarded by the list's lock.
  @usableFromInline @exclusivity(unchecked) var ownerBoundIndex = -1

  @usableFromInline
  init(
    handler: @escaping @Sendable (Payload) -> Void,
    tag: Tag,
    flags: Int,
    owner: (any AnyObject & Sendable)?,
    delivery: Delivery
  ) {
    self.owner = owner
    self.isOwnerBound = owner != nil
    self.delivery = delivery
    super.init(handler: handler, tag: tag, flags: flags | NodeBits.extended)
  }

  /// Whether the handler's owner has been deallocated.
  @inlinable
  var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }
}

/// The thread-safe, ordered handler list behind ``Event`` and ``ControlActions``.
///
/// A send copies the entry array under the lock (one reference-count increment, no element copy),
/// then calls the handlers outside it. Removal leaves a hole that a later compaction closes, so add
/// and cancel are amortised O(1). Tokens hold the list strongly (it is small); the user-facing
/// source calls ``close()`` from its deinit, which ends every handler.
@usableFromInline
final class HandlerList<Payload: Sendable, Tag: Sendable>: SubscriptionSource {
  @usableFromInline typealias Node = HandlerNode<Payload, Tag>

  @usableFromInline
  struct State {
    /// Live handlers in registration order; `nil` marks a removed one until compaction.
    @usableFromInline var entries: ContiguousArray<Node?> = []
    /// The number of non-`nil` entries.
    @usableFromInline var liveCount = 0
    /// The handlers registered with an owner, swept for dead owners on registration; may still
    /// hold nodes that ended since the last sweep.
    @usableFromInline var ownerBound: [Node] = []
    /// Registrations since the last sweep of `ownerBound`.
    @usableFromInline var registrationsSinceSweep = 0
    /// Set by ``HandlerList/close()``: the source is gone and takes no more handlers.
    @usableFromInline var isClosed = false

    @usableFromInline init() {}

    /// Removes `node`, which has ended, from the entries and the owner list, and detaches its
    /// token. Returns the node, to be released after the lock is dropped (its release may run
    /// arbitrary deinit code); callers hold it while this runs.
    @inlinable
    mutating func remove(_ node: Node) -> Node {
      _ = detachToken(of: node)
      if let extended = node.extended, extended.ownerBoundIndex >= 0 {
        let position = extended.ownerBoundIndex
        let last = ownerBound.removeLast()
        if last !== node {
          ownerBound[position] = last
          last.extended?.ownerBoundIndex = position
        }
        extended.ownerBoundIndex = -1
      }
      let index = node.bits.load(ordering: .relaxed) >> NodeBits.indexShift
      guard index < entries.count, entries[index] === node else { return node }
      entries[index] = nil
      liveCount -= 1
      if liveCount == 0 {
        entries.removeAll(keepingCapacity: entries.count <= 1024)
      } else if entries.count >= 32, liveCount < entries.count / 2 {
        compact()
      }
      return node
    }

    /// Clears the token's reference to `node`; returns that reference for release outside the lock.
    @inlinable
    func detachToken(of node: Node) -> Node? {
      guard let token = node.token else { return nil }
      node.token = nil
      let reference = token._withUnsafeGuaranteedRef { token in
        defer { token.node = nil }
        return token.node
      }
      return reference.map { unsafeDowncast($0, to: Node.self) }
    }

    /// Closes the holes left by removals and renumbers the nodes.
    @usableFromInline
    mutating func compact() {
      var compacted = ContiguousArray<Node?>()
      compacted.reserveCapacity(Swift.max(liveCount * 2, 16))
      for case let node? in entries {
        let old = node.bits.load(ordering: .relaxed) >> NodeBits.indexShift
        let new = compacted.count
        if old != new {
          node.bits.wrappingSubtract((old - new) << NodeBits.indexShift, ordering: .relaxed)
        }
        compacted.append(node)
      }
      entries = compacted
    }

    /// Counts a registration; returns whether the owners should be swept now: at every
    /// registration while few handlers have an owner, else once every `ownerBound.count`
    /// registrations, so that registration stays amortised O(1).
    @usableFromInline
    mutating func isSweepDue() -> Bool {
      registrationsSinceSweep += 1
      guard !ownerBound.isEmpty else { return false }
      return ownerBound.count <= 64 || registrationsSinceSweep >= ownerBound.count
    }
  }

  @usableFromInline let state = Locked(State())

  @usableFromInline init() {}

  // MARK: Registration

  /// Registers a handler and returns its token.
  @usableFromInline
  func add(
    tag: Tag,
    once: Bool,
    owner: (any AnyObject & Sendable)?,
    delivery: Delivery,
    handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    let flags = once ? NodeBits.once : 0
    let node: Node
    if owner == nil, delivery.isImmediate {
      node = Node(handler: handler, tag: tag, flags: flags)
    } else {
      node = ExtendedHandlerNode(handler: handler, tag: tag, flags: flags, owner: owner, delivery: delivery)
    }
    let token = Subscription(source: self, node: node)
    let isSweepDue = state.withLock { state -> Bool in
      if state.isClosed {
        _ = node.claimEnd()
        token.node = nil
        return false
      }
      let isSweepDue = state.isSweepDue()
      node.token = Unmanaged.passUnretained(token)
      node.bits.wrappingAdd(state.entries.count << NodeBits.indexShift, ordering: .relaxed)
      state.entries.append(node)
      state.liveCount += 1
      if let extended = node.extended, owner != nil {
        extended.ownerBoundIndex = state.ownerBound.count
        state.ownerBound.append(node)
      }
      return isSweepDue
    }
    if isSweepDue { sweepOrphans() }
    return token
  }

  /// Ends and removes every owner-bound handler whose owner is gone.
  ///
  /// The owners are checked outside the lock: reading a weak reference makes a strong copy, and if
  /// another thread dropped the owner's last reference meanwhile, releasing that copy would run the
  /// owner's deinit (which may cancel its own token, taking this lock) under the lock.
  ///
  /// - Complexity: O(k) in the number of live handlers registered with an owner.
  @usableFromInline
  func sweepOrphans() {
    let candidates = state.withLock { state -> [Node] in
      state.registrationsSinceSweep = 0
      return state.ownerBound
    }
    let orphans = candidates.filter { $0.extended?.isOrphaned ?? false }
    guard !orphans.isEmpty else { return }
    let garbage = state.withLock { state in
      orphans.map { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
    }
    _ = garbage
  }

  // MARK: Sending

  /// Calls every live handler, in registration order.
  @inlinable
  func send(_ payload: Payload) {
    let snapshot = state.withLock { $0.entries }
    deliver(payload, to: snapshot)
  }

  /// Calls every live handler whose tag matches, in registration order.
  @inlinable
  func send(_ payload: Payload, matching match: (Tag) -> Bool) {
    let snapshot = state.withLock { state in
      var matching = ContiguousArray<Node?>()
      for case let node? in state.entries where match(node.tag) {
        matching.append(node)
      }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// Calls the live handlers of `snapshot`, then removes those that ended on the way.
  @inlinable
  func deliver(_ payload: Payload, to snapshot: ContiguousArray<Node?>) {
    var ended: [Node] = []
    snapshot.withUnsafeBufferPointer { nodes in
      for slot in nodes {
        guard let slot else { continue }
        // The snapshot keeps every node alive for the whole loop: no retain per handler.
        Unmanaged.passUnretained(slot)._withUnsafeGuaranteedRef { node in
          let bits = node.bits.load(ordering: .acquiring)
          if bits & NodeBits.ended != 0 { return }
          if bits & NodeBits.extended != 0 {
            deliver(payload, to: unsafeDowncast(node, to: ExtendedHandlerNode<Payload, Tag>.self), ended: &ended)
            return
          }
          if bits & NodeBits.once != 0 {
            guard node.claimEnd() else { return }
            ended.append(node)
          }
          node.handler(payload)
        }
      }
    }
    if !ended.isEmpty {
      remove(ended)
    }
  }

  /// The uncommon path of a send: owner checks and asynchronous delivery.
  @inlinable @inline(never)
  func deliver(_ payload: Payload, to node: ExtendedHandlerNode<Payload, Tag>, ended: inout [Node]) {
    if node.isOrphaned {
      if node.claimEnd() { ended.append(node) }
      return
    }
    let once = node.bits.load(ordering: .relaxed) & NodeBits.once != 0
    if node.delivery.isImmediate {
      if once {
        guard node.claimEnd() else { return }
        ended.append(node)
      }
      node.handler(payload)
      return
    }
    node.delivery.execute { [self] in
      if node.isOrphaned {
        if node.claimEnd() { remove([node]) }
        return
      }
      if once {
        guard node.claimEnd() else { return }
        remove([node])
      } else if node.bits.load(ordering: .acquiring) & NodeBits.ended != 0 {
        return
      }
      node.handler(payload)
    }
  }

  // MARK: Removal and queries

  /// Removes ended nodes; releases them after the lock is dropped.
  @inlinable @inline(never)
  func remove(_ nodes: [Node]) {
    let garbage = state.withLock { state in nodes.map { state.remove($0) } }
    _ = garbage
  }

  /// Ends every handler: called by the source's deinit.
  @usableFromInline
  func close() {
    let garbage = state.withLock { state -> ContiguousArray<Node?> in
      state.isClosed = true
      let entries = state.entries
      for case let node? in entries {
        _ = node.claimEnd()
        _ = state.detachToken(of: node)
      }
      state.entries = []
      state.liveCount = 0
      for node in state.ownerBound { node.extended?.ownerBoundIndex = -1 }
      state.ownerBound = []
      return entries
    }
    _ = garbage
  }

  package func cancel(_ subscription: Subscription) {
    let garbage = state.withLock { state -> Node? in
      guard let reference = subscription.node else { return nil }
      let node = unsafeDowncast(reference, to: Node.self)
      _ = node.claimEnd()
      return state.remove(node)
    }
    _ = garbage
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    // The owner is read after unlocking (see ``sweepOrphans()``).
    let node = state.withLock { _ in subscription.node.map { unsafeDowncast($0, to: Node.self) } }
    return node?.isEnded ?? true
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {
    state.withLock { _ in
      guard let reference = subscription.node else { return }
      unsafeDowncast(reference, to: Node.self).token = nil
    }
  }

  /// The number of live handlers whose tag matches (all of them for `nil`).
  func count(matching match: ((Tag) -> Bool)? = nil) -> Int {
    sweepOrphans()
    return state.withLock { state in
      guard let match else { return state.liveCount }
      return state.entries.lazy.filter { $0.map { match($0.tag) } ?? false }.count
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = state.withLock { state -> [Node] in
      var garbage: [Node] = []
      for case let node? in state.entries where !body(&node.tag) {
        _ = node.claimEnd()
        garbage.append(state.remove(node))
      }
      return garbage
    }
    _ = garbage
  }
}
