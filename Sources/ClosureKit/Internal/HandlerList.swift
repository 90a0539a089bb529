public import Synchronization

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
    delivery: __owned Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    let flags = once ? NodeBits.once : 0
    // Each node goes to `register` as it is made, a temporary handed over owned: kept in a local,
    // it costs the caller a retain and a release around the call.
    if delivery.isImmediate {
      return register(
        TaggedNode(list: self, tag: tag, flags: flags),
        handler: ErasableHandler(handler).erased,
        site: site
      )
    }
    // `delivery`'s last use, so it is moved without `consume`; spelled `consume delivery`, the
    // Swift 6.3 compiler crashes type-checking this against iPhoneOS16.5.sdk's standard library
    // (Scripts/typecheck-apple-sdk.sh), which lacks the `Copyable` protocol the check looks up.
    return register(
      DeliveryNode<Payload, Tag>(list: self, tag: tag, flags: flags, delivery: delivery),
      handler: ErasableHandler(handler).erased,
      site: site
    )
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
    let flags = once ? NodeBits.once : 0
    return register(
      OwnedNode<Owner, Payload, Tag>(list: self, tag: tag, flags: flags, owner: owner, delivery: delivery),
      handler: ErasableOwnedHandler(handler).erased,
      site: site
    )
  }

  // MARK: Sending

  /// Calls every live handler, in registration order.
  ///
  /// With one live handler, immediate and not a one-shot (the common case), the send copies that
  /// handler under the lock instead of the entry array: a call from the array retains and releases
  /// the handler's context anyway (a closure in an array cannot be called in place), so the fast
  /// path saves the array's retain and release, a third of a send to one handler.
  @inlinable
  func send(_ payload: Payload) {
    var snapshot = ContiguousArray<HandlerEntry>()
    let single = state.withLock { state -> ErasableHandler<Payload>? in
      if state.entries.count == 1, let single = Self.singlePlainHandler(in: state.entries) {
        return single
      }
      snapshot = state.entries
      return nil
    }
    switch consume single {
    case .some(let handler):
      handler(payload)
    case .none:
      deliver(payload, to: snapshot)
    }
  }

  /// The handler of the one entry of `entries`, if it is live, immediate and not a one-shot.
  @inlinable
  static func singlePlainHandler(in entries: ContiguousArray<HandlerEntry>) -> ErasableHandler<Payload>? {
    entries.withUnsafeBufferPointer { entries -> ErasableHandler<Payload>? in
      let entry = entries.baseAddress!
      guard let node = HandlerEntry.node(at: entry) else { return nil }
      let bits = node._withUnsafeGuaranteedRef { $0.word.load(ordering: .acquiring) }
      guard bits & (NodeBits.ended | NodeBits.once | NodeBits.extended) == 0 else { return nil }
      return HandlerEntry.handler(at: entry).withMemoryRebound(to: ErasableHandler<Payload>.self, capacity: 1) {
        $0.pointee
      }
    }
  }

  /// Calls every live handler whose tag matches, in registration order.
  @inlinable
  func send(_ payload: Payload, matching match: (Tag) -> Bool) {
    let snapshot = state.withLock { state in
      var matching = ContiguousArray<HandlerEntry>()
      forEachEntry(of: state.entries) { node, handler in
        if match(Self.tag(of: node)) { matching.append(HandlerEntry(node: node, handler: handler.pointee)) }
      }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// The tag of `node`, one of this list's nodes.
  @inlinable
  static func tag(of node: HandlerNodeCore) -> Tag {
    if node.word.load(ordering: .relaxed) & NodeBits.extended != 0 {
      return unsafeDowncast(node, to: ExtendedNode<Payload, Tag>.self).tag
    }
    return unsafeDowncast(node, to: TaggedNode<Tag>.self).tag
  }

  /// Calls the live handlers of `snapshot`, then removes those that ended on the way.
  ///
  /// Nodes and handlers are read in place: the snapshot keeps every one alive for the whole loop,
  /// and a strong copy costs a retain and a release per handler (half the time of a send to one
  /// handler).
  @inlinable
  func deliver(_ payload: Payload, to snapshot: ContiguousArray<HandlerEntry>) {
    var ended: [HandlerNodeCore] = []
    forEachEntry(of: snapshot) { node, handler in
      let bits = node.word.load(ordering: .acquiring)
      if bits & NodeBits.ended != 0 { return }
      if bits & NodeBits.extended != 0 {
        deliver(
          payload,
          to: unsafeDowncast(node, to: ExtendedNode<Payload, Tag>.self),
          handler: handler,
          ended: &ended
        )
        return
      }
      if bits & NodeBits.once != 0 {
        guard node.claimEnd() else { return }
        ended.append(node)
      }
      ErasableHandler<Payload>.call(handler, with: payload)
    }
    if !ended.isEmpty {
      remove(ended)
    }
  }

  /// The uncommon path of a send: owner checks and asynchronous delivery.
  @inlinable @inline(never)
  func deliver(
    _ payload: Payload,
    to node: ExtendedNode<Payload, Tag>,
    handler: UnsafePointer<ErasedHandler>,
    ended: inout [HandlerNodeCore]
  ) {
    if node.isOrphaned {
      if node.claimEnd() { ended.append(node) }
      return
    }
    let once = node.word.load(ordering: .relaxed) & NodeBits.once != 0
    if node.delivery.isImmediate {
      if once {
        guard node.claimEnd() else { return }
        ended.append(node)
      }
      if !node.invoke(handler, payload), node.claimEnd() { ended.append(node) }
      return
    }
    // The job keeps its own reference to the handler: a delivery queued before a cancel keeps the
    // captures until it is dropped, unrun.
    let queued = handler.pointee
    node.delivery.execute { [self] in
      if node.isOrphaned {
        if node.claimEnd() { remove([node]) }
        return
      }
      if once {
        guard node.claimEnd() else { return }
        remove([node])
      } else if node.word.load(ordering: .acquiring) & NodeBits.ended != 0 {
        return
      }
      let isCalled = withUnsafePointer(to: queued) { node.invoke($0, payload) }
      if !isCalled, node.claimEnd() { remove([node]) }
    }
  }

  // MARK: Queries and tags

  /// The number of live handlers whose tag matches.
  @inlinable
  func count(matching match: (Tag) -> Bool) -> Int {
    sweepOrphans()
    return state.withLock { state in
      var count = 0
      forEachEntry(of: state.entries) { node, _ in
        if match(Self.tag(of: node)) { count += 1 }
      }
      return count
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  @inlinable
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = state.withLock { state -> (HandlerEntry?, [HandlerEntry?]) in
      // Collected first, removed after the loop (a removal may compact the entries); the first in
      // a variable of its own, so that the common removal of one handler allocates nothing.
      var first: Unmanaged<HandlerNodeCore>?
      var more: [HandlerNodeCore] = []
      forEachEntry(of: state.entries) { node, _ in
        let keep: Bool
        if node.word.load(ordering: .relaxed) & NodeBits.extended != 0 {
          keep = body(&unsafeDowncast(node, to: ExtendedNode<Payload, Tag>.self).tag)
        } else {
          keep = body(&unsafeDowncast(node, to: TaggedNode<Tag>.self).tag)
        }
        if keep { return }
        if first == nil { first = Unmanaged.passUnretained(node) } else { more.append(node) }
      }
      guard let first else { return (nil, []) }
      // `first` stays alive: the entries hold it until `remove` hands their reference over.
      let removedFirst = first._withUnsafeGuaranteedRef { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
      return (
        removedFirst,
        more.map { node in
          _ = node.claimEnd()
          return state.remove(node)
        }
      )
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }
}
