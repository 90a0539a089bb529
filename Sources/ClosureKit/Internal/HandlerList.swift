public import Synchronization

/// The layout of `HandlerNodeCore.bits`. Not nested in a node class, so that reading a constant
/// needs no metadata on the send path.
@usableFromInline
enum NodeBits {
  /// Set once the handler has ended: cancelled, run as a one-shot, owner gone, or source gone.
  @inlinable static var ended: Int { 1 }
  /// The handler runs at most once.
  @inlinable static var once: Int { 2 }
  /// The node is an ``ExtendedNodeCore`` (owner or non-immediate delivery).
  @inlinable static var extended: Int { 4 }
  /// The node's index in `HandlerListState.entries` is stored above the flag bits.
  @inlinable static var indexShift: Int { 3 }
}

/// The references to a removed node that the list's entries and its token held: released when
/// this is, which its holder arranges to happen after the list's lock is dropped.
@usableFromInline
struct RemovedNode {
  /// The token's reference.
  @usableFromInline let fromToken: AnyObject?
  /// The entries' reference.
  @usableFromInline let fromEntries: HandlerNodeCore?

  @usableFromInline
  init(fromToken: AnyObject?, fromEntries: HandlerNodeCore?) {
    self.fromToken = fromToken
    self.fromEntries = fromEntries
  }
}

/// What every registered handler of a ``HandlerList`` has, whatever its payload: its state bits and
/// its token. Not generic, so that registration bookkeeping, cancellation and removal are compiled
/// once, concretely, and never look up generic metadata (they did, and it was half their cost).
///
/// The handler itself is in a generic subclass (``HandlerNode`` or an ``ExtendedHandlerNode``), a
/// `let`, so a send calls it without copying it; what it captured is released when the node itself
/// is released: when it has left the list, every running send's snapshot, and its
/// ``Subscription``, which the list detaches when the node ends.
///
/// `@unchecked Sendable`: `bits` is atomic; `token` is read and written only under the list's lock.
@usableFromInline
class HandlerNodeCore: @unchecked Sendable {
  /// Flag bits (``NodeBits``) and, above `NodeBits.indexShift`, the index in the list's entries.
  @usableFromInline final let bits: Atomic<Int>
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
  init(flags: Int) {
    self.bits = Atomic(flags)
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

  /// This node as an ``ExtendedNodeCore``, if it is one.
  @inlinable
  final var extended: ExtendedNodeCore? {
    guard bits.load(ordering: .relaxed) & NodeBits.extended != 0 else { return nil }
    return unsafeDowncast(self, to: ExtendedNodeCore.self)
  }

  /// Whether the handler will not run again: ended, or its owner is gone.
  @inlinable
  final var isEnded: Bool {
    if bits.load(ordering: .acquiring) & NodeBits.ended != 0 { return true }
    return extended?.isOrphaned ?? false
  }
}

/// The non-generic part of a handler registered with an owner or with a non-immediate delivery:
/// the uncommon case, kept out of the common node so that it stays small.
///
/// `@unchecked Sendable`: as ``HandlerNodeCore``; `owner` is a weak reference, which the runtime
/// reads and clears atomically; `ownerBoundIndex` is guarded by the list's lock.
@usableFromInline
class ExtendedNodeCore: HandlerNodeCore, @unchecked Sendable {
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline final weak let owner: (any AnyObject & Sendable)?
  /// Whether the handler was registered with an owner.
  @usableFromInline final let isOwnerBound: Bool
  /// Where the handler runs.
  @usableFromInline final let delivery: Delivery
  /// The position in `HandlerListState.ownerBound`, or -1; guarded by the list's lock.
  @usableFromInline @exclusivity(unchecked) final var ownerBoundIndex = -1

  @usableFromInline
  init(flags: Int, owner: (any AnyObject & Sendable)?, delivery: Delivery) {
    self.owner = owner
    self.isOwnerBound = owner != nil
    self.delivery = delivery
    super.init(flags: flags | NodeBits.extended)
  }

  /// Whether the handler's owner has been deallocated.
  @inlinable
  final var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }
}

/// A handler registered with immediate delivery and no owner: the common node.
///
/// `@unchecked Sendable`: `handler` is immutable; `tag` is read and written only under the list's
/// lock.
@usableFromInline
final class HandlerNode<Payload: Sendable, Tag: Sendable>: HandlerNodeCore, @unchecked Sendable {
  /// The handler.
  @usableFromInline let handler: @Sendable (Payload) -> Void
  /// Per-handler data of the source (the kinds of a control action); `Void` for events.
  @usableFromInline @exclusivity(unchecked) var tag: Tag

  @inlinable
  init(handler: @escaping @Sendable (Payload) -> Void, tag: Tag, flags: Int) {
    self.handler = handler
    self.tag = tag
    super.init(flags: flags)
  }
}

/// A handler registered with an owner or a non-immediate delivery: the tag, and the call, which
/// the two subclasses make differently.
///
/// `@unchecked Sendable`: `tag` is read and written only under the list's lock.
@usableFromInline
class ExtendedHandlerNode<Payload: Sendable, Tag: Sendable>: ExtendedNodeCore, @unchecked Sendable {
  /// Per-handler data of the source; `Void` for events.
  @usableFromInline @exclusivity(unchecked) final var tag: Tag

  @inlinable
  init(tag: Tag, flags: Int, owner: (any AnyObject & Sendable)?, delivery: Delivery) {
    self.tag = tag
    super.init(flags: flags, owner: owner, delivery: delivery)
  }

  /// Calls the handler with `payload`; returns `false`, having called nothing, if its owner is
  /// gone.
  @usableFromInline
  func invoke(_ payload: Payload) -> Bool {
    preconditionFailure("ExtendedHandlerNode.invoke(_:) is overridden by every subclass")
  }
}

/// A handler without an owner, with a non-immediate delivery.
///
/// `@unchecked Sendable`: as ``ExtendedHandlerNode``; `handler` is immutable.
@usableFromInline
final class DeliveryHandlerNode<Payload: Sendable, Tag: Sendable>: ExtendedHandlerNode<Payload, Tag>,
  @unchecked Sendable
{
  /// The handler.
  @usableFromInline let handler: @Sendable (Payload) -> Void

  @inlinable
  init(handler: @escaping @Sendable (Payload) -> Void, tag: Tag, flags: Int, delivery: Delivery) {
    self.handler = handler
    super.init(tag: tag, flags: flags, owner: nil, delivery: delivery)
  }

  @usableFromInline
  override func invoke(_ payload: Payload) -> Bool {
    handler(payload)
    return true
  }
}

/// A handler registered with an owner. It keeps the user's closure as it is and hands it the owner
/// from the node's own weak reference, so that the registration needs no wrapping closure (with a
/// weak capture of its own: an allocation and two atomic operations more).
///
/// `@unchecked Sendable`: as ``ExtendedHandlerNode``; `handler` is immutable.
@usableFromInline
final class OwnedHandlerNode<Owner: AnyObject & Sendable, Payload: Sendable, Tag: Sendable>:
  ExtendedHandlerNode<Payload, Tag>, @unchecked Sendable
{
  /// The handler.
  @usableFromInline let handler: @Sendable (Owner, Payload) -> Void

  @inlinable
  init(
    handler: @escaping @Sendable (Owner, Payload) -> Void,
    tag: Tag,
    flags: Int,
    owner: Owner,
    delivery: Delivery
  ) {
    self.handler = handler
    super.init(tag: tag, flags: flags, owner: owner, delivery: delivery)
  }

  @usableFromInline
  override func invoke(_ payload: Payload) -> Bool {
    // A strong reference for the call: the owner cannot go while its handler runs.
    guard let owner else { return false }
    handler(unsafeDowncast(owner, to: Owner.self), payload)
    return true
  }
}

/// The registrations of a ``HandlerList``, guarded by its lock. Not generic (see
/// ``HandlerNodeCore``).
@usableFromInline
struct HandlerListState {
  /// Live handlers in registration order; `nil` marks a removed one until compaction.
  @usableFromInline var entries: ContiguousArray<HandlerNodeCore?> = []
  /// The number of non-`nil` entries.
  @usableFromInline var liveCount = 0
  /// The handlers registered with an owner, swept for dead owners on registration; may still
  /// hold nodes that ended since the last sweep.
  @usableFromInline var ownerBound: [ExtendedNodeCore] = []
  /// Registrations since the last sweep of `ownerBound`.
  @usableFromInline var registrationsSinceSweep = 0
  /// Set by ``HandlerListCore/close()``: the source is gone and takes no more handlers.
  @usableFromInline var isClosed = false
  /// Where the live handlers were registered, for those registered while diagnostics were on
  /// (`DiagnosticsSwitch`); empty otherwise.
  @usableFromInline var sites: [ObjectIdentifier: RegistrationSite] = [:]

  @usableFromInline init() {}

  /// Removes `node`, which has ended, from the entries and the owner list, and detaches its
  /// token. Returns the references to it that the entries and the token held, to be released after
  /// the lock is dropped (the last release may run arbitrary deinit code).
  @usableFromInline
  mutating func remove(_ node: HandlerNodeCore) -> RemovedNode {
    let fromToken = detachToken(of: node)
    if let extended = node.extended, extended.ownerBoundIndex >= 0 {
      let position = extended.ownerBoundIndex
      let last = ownerBound.removeLast()
      if last !== extended {
        ownerBound[position] = last
        last.ownerBoundIndex = position
      }
      extended.ownerBoundIndex = -1
    }
    if !sites.isEmpty { sites[ObjectIdentifier(node)] = nil }
    let index = node.bits.load(ordering: .relaxed) >> NodeBits.indexShift
    var trailingHoles = 0
    let fromEntries = entries.withUnsafeMutableBufferPointer { entries -> HandlerNodeCore? in
      guard index < entries.count, entries[index] === node else { return nil }
      let fromEntries = entries[index].take()
      // Trailing holes go at once (the common add-then-cancel of the newest handler), so that
      // they never build up to a compaction.
      while trailingHoles < entries.count, entries[entries.count - 1 - trailingHoles] == nil {
        trailingHoles += 1
      }
      return fromEntries
    }
    guard fromEntries != nil else { return RemovedNode(fromToken: fromToken, fromEntries: nil) }
    liveCount -= 1
    if trailingHoles > 0 { entries.removeLast(trailingHoles) }
    if liveCount == 0 {
      entries.removeAll(keepingCapacity: entries.count <= 1024)
    } else if entries.count >= 32, liveCount < entries.count / 2 {
      compact()
    }
    return RemovedNode(fromToken: fromToken, fromEntries: fromEntries)
  }

  /// Clears the token's reference to `node`; returns that reference, owned, for release outside
  /// the lock.
  @usableFromInline
  func detachToken(of node: HandlerNodeCore) -> AnyObject? {
    guard let token = node.token else { return nil }
    node.token = nil
    return token._withUnsafeGuaranteedRef { $0.takeNode() }
  }

  /// Closes the holes left by removals and renumbers the nodes.
  @usableFromInline
  mutating func compact() {
    var compacted = ContiguousArray<HandlerNodeCore?>()
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

/// The part of ``HandlerList`` that does not depend on the payload: registration bookkeeping,
/// cancellation, removal, the owner sweep and closing.
///
/// `@unchecked Sendable`: its only state is `state`, a ``Locked``; the class is not final only so
/// that ``HandlerList`` can add the generic send path.
@usableFromInline
class HandlerListCore: SubscriptionSource, @unchecked Sendable {
  @usableFromInline final let state = Locked(HandlerListState())

  @usableFromInline init() {}

  // MARK: Registration

  /// Inserts `node`, made by ``HandlerList/add(tag:once:owner:delivery:site:handler:)``, and returns
  /// its token.
  @usableFromInline
  final func register(_ node: HandlerNodeCore, site: RegistrationSite) -> Subscription {
    let token = Subscription(source: self, node: node)
    let isDiagnosing = DiagnosticsSwitch.isEnabled
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
      if let extended = node.extended, extended.isOwnerBound {
        extended.ownerBoundIndex = state.ownerBound.count
        state.ownerBound.append(extended)
      }
      if isDiagnosing { state.sites[ObjectIdentifier(node)] = site }
      return isSweepDue
    }
    if isDiagnosing, let extended = node.extended, extended.isOrphaned {
      // The caller still holds the owner, so a weak reference that reads `nil` means the owner is
      // being deinitialised: the handler can never run.
      DiagnosticsSwitch.reportDeadOwner(at: site)
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
  final func sweepOrphans() {
    let candidates = state.withLock { state -> [ExtendedNodeCore] in
      state.registrationsSinceSweep = 0
      return state.ownerBound
    }
    let orphans = candidates.filter(\.isOrphaned)
    guard !orphans.isEmpty else { return }
    let garbage = state.withLock { state in
      orphans.map { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
    }
    _ = garbage
  }

  // MARK: Removal and queries

  /// Removes ended nodes; releases them after the lock is dropped.
  @usableFromInline
  final func remove(_ nodes: [HandlerNodeCore]) {
    let garbage = state.withLock { state in nodes.map { state.remove($0) } }
    _ = garbage
  }

  /// Ends every handler: called by the source's deinit.
  @usableFromInline
  final func close() {
    let garbage = state.withLock { state -> ContiguousArray<HandlerNodeCore?> in
      state.isClosed = true
      let entries = state.entries
      for case let node? in entries {
        _ = node.claimEnd()
        _ = state.detachToken(of: node)
      }
      state.entries = []
      state.liveCount = 0
      for node in state.ownerBound { node.ownerBoundIndex = -1 }
      state.ownerBound = []
      state.sites = [:]
      return entries
    }
    _ = garbage
  }

  package final func cancel(_ subscription: Subscription) {
    let garbage = state.withLock { state -> RemovedNode? in
      // Unretained: the token's reference keeps the node alive until `remove` hands it over.
      subscription.unretainedNode?._withUnsafeGuaranteedRef { reference in
        let node = unsafeDowncast(reference, to: HandlerNodeCore.self)
        _ = node.claimEnd()
        return state.remove(node)
      }
    }
    _ = garbage
  }

  package final func isCancelled(_ subscription: Subscription) -> Bool {
    // The owner is read after unlocking (see ``sweepOrphans()``).
    let node = state.withLock { _ in subscription.node.map { unsafeDowncast($0, to: HandlerNodeCore.self) } }
    return node?.isEnded ?? true
  }

  package final func subscriptionWillDeinit(_ subscription: Subscription) {
    state.withLock { _ in
      subscription.unretainedNode?._withUnsafeGuaranteedRef { reference in
        unsafeDowncast(reference, to: HandlerNodeCore.self).token = nil
      }
    }
  }

  /// The number of live handlers.
  final func count() -> Int {
    sweepOrphans()
    return state.withLock { $0.liveCount }
  }

  /// Where each live handler was registered, in registration order; `nil` for a handler
  /// registered while diagnostics were off.
  final func liveSites() -> [RegistrationSite?] {
    sweepOrphans()
    return state.withLock { state in
      state.entries.compactMap { $0 }.map { state.sites[ObjectIdentifier($0)] }
    }
  }
}

/// The thread-safe, ordered handler list behind ``Event`` and ``ControlActions``.
///
/// A send copies the entry array under the lock (one reference-count increment, no element copy),
/// then calls the handlers outside it. Removal leaves a hole that a later compaction closes, so add
/// and cancel are amortised O(1). Tokens hold the list strongly (it is small); the user-facing
/// source calls ``HandlerListCore/close()`` from its deinit, which ends every handler.
///
/// Only what needs the payload or tag type is here, and it is `@inlinable`, so that a client
/// compiles it for its own types; the rest is in the non-generic ``HandlerListCore``.
@usableFromInline
final class HandlerList<Payload: Sendable, Tag: Sendable>: HandlerListCore, @unchecked Sendable {
  // @unchecked Sendable: as HandlerListCore; no state of its own.

  @inlinable override init() {}

  // MARK: Registration

  /// Registers a handler without an owner and returns its token.
  @inlinable
  func add(
    tag: Tag,
    once: Bool,
    delivery: Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    let flags = once ? NodeBits.once : 0
    let node: HandlerNodeCore
    if delivery.isImmediate {
      node = HandlerNode(handler: handler, tag: tag, flags: flags)
    } else {
      node = DeliveryHandlerNode(handler: handler, tag: tag, flags: flags, delivery: delivery)
    }
    return register(node, site: site)
  }

  /// Registers a handler bound to `owner` and returns its token.
  @inlinable
  func add<Owner: AnyObject & Sendable>(
    tag: Tag,
    once: Bool,
    owner: Owner,
    delivery: Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    let flags = once ? NodeBits.once : 0
    let node = OwnedHandlerNode(handler: handler, tag: tag, flags: flags, owner: owner, delivery: delivery)
    return register(node, site: site)
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
      var matching = ContiguousArray<HandlerNodeCore?>()
      for case let node? in state.entries where match(Self.tag(of: node)) {
        matching.append(node)
      }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// The tag of `node`, one of this list's nodes.
  @inlinable
  static func tag(of node: HandlerNodeCore) -> Tag {
    if node.bits.load(ordering: .relaxed) & NodeBits.extended != 0 {
      return unsafeDowncast(node, to: ExtendedHandlerNode<Payload, Tag>.self).tag
    }
    return unsafeDowncast(node, to: HandlerNode<Payload, Tag>.self).tag
  }

  /// Calls the live handlers of `snapshot`, then removes those that ended on the way.
  @inlinable
  func deliver(_ payload: Payload, to snapshot: ContiguousArray<HandlerNodeCore?>) {
    var ended: [HandlerNodeCore] = []
    // Read as unmanaged references: the snapshot keeps every node alive for the whole loop, and a
    // slot loaded as a strong reference costs a retain and a release per handler (half the time
    // of a send to one handler).
    snapshot.withUnsafeBufferPointer { nodes in
      nodes.withMemoryRebound(to: Unmanaged<HandlerNodeCore>?.self) { slots in
        for slot in slots {
          guard let slot else { continue }
          slot._withUnsafeGuaranteedRef { node in
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
            unsafeDowncast(node, to: HandlerNode<Payload, Tag>.self).handler(payload)
          }
        }
      }
    }
    if !ended.isEmpty {
      remove(ended)
    }
  }

  /// The uncommon path of a send: owner checks and asynchronous delivery.
  @inlinable @inline(never)
  func deliver(
    _ payload: Payload,
    to node: ExtendedHandlerNode<Payload, Tag>,
    ended: inout [HandlerNodeCore]
  ) {
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
      if !node.invoke(payload), node.claimEnd() { ended.append(node) }
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
      if !node.invoke(payload), node.claimEnd() { remove([node]) }
    }
  }

  // MARK: Queries and tags

  /// The number of live handlers whose tag matches.
  @inlinable
  func count(matching match: (Tag) -> Bool) -> Int {
    sweepOrphans()
    return state.withLock { state in
      var count = 0
      for case let node? in state.entries where match(Self.tag(of: node)) {
        count += 1
      }
      return count
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  @inlinable
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = state.withLock { state -> [RemovedNode] in
      // Borrowed from the entries, which hold every node for the whole loop: no retain per node.
      var ending: [HandlerNodeCore] = []
      state.entries.withUnsafeBufferPointer { entries in
        for slot in entries {
          guard let slot else { continue }
          Unmanaged.passUnretained(slot)._withUnsafeGuaranteedRef { node in
            let keep: Bool
            if node.bits.load(ordering: .relaxed) & NodeBits.extended != 0 {
              keep = body(&unsafeDowncast(node, to: ExtendedHandlerNode<Payload, Tag>.self).tag)
            } else {
              keep = body(&unsafeDowncast(node, to: HandlerNode<Payload, Tag>.self).tag)
            }
            if !keep { ending.append(node) }
          }
        }
      }
      return ending.map { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
    }
    _ = garbage
  }
}
