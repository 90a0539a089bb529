import Synchronization

// The payload-independent part of the registry (split from HandlerList.swift by role).

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

  /// Inserts `node` with its `handler`, made by
  /// ``HandlerList/add(tag:once:delivery:site:handler:)``, and returns `node`, the token.
  @usableFromInline
  final func register(_ node: __owned HandlerNodeCore, handler: ErasedHandler, site: RegistrationSite) -> Subscription {
    let isDiagnosing = DiagnosticsSwitch.isEnabled
    let candidates = state.withLock { state -> [ExtendedNodeCore]? in
      if state.isClosed {
        _ = node.claimEnd()
        return nil
      }
      // A plain store, not an atomic add: no other thread has seen the node yet.
      let bits = node.word.load(ordering: .relaxed)
      node.word.store(bits | state.entries.count << NodeBits.indexShift, ordering: .relaxed)
      state.entries.append(HandlerEntry(node: node, handler: handler))
      state.liveCount += 1
      var newOwners = 0
      node.withOwnerBound { extended in
        extended.ownerBoundIndex = state.ownerBound.count
        state.ownerBound.append(Unmanaged.passUnretained(extended))
        newOwners = 1
      }
      if isDiagnosing { state.sites[ObjectIdentifier(node)] = site }
      return state.sweepCandidates(newOwners: newOwners)
    }
    if isDiagnosing, node.withOwnerBound(\.isOwnerGone) == true {
      // The caller still holds the owner, so a weak reference that reads `nil` means the owner is
      // being deinitialised: the handler can never run.
      DiagnosticsSwitch.reportDeadOwner(at: site)
    }
    if let candidates { sweep(candidates) }
    return node
  }

  /// Ends and removes every owner-bound handler whose owner is gone.
  ///
  /// - Complexity: O(k) in the number of live handlers registered with an owner.
  @usableFromInline
  final func sweepOrphans() {
    let candidates = state.withLock { state -> [ExtendedNodeCore] in
      state.registrationsSinceSweep = 0
      return state.retainedOwnerBound()
    }
    sweep(candidates)
  }

  /// Ends and removes the handlers of `candidates`, a copy of the owner-bound ones, whose owner is
  /// gone.
  ///
  /// The owners are checked outside the lock: reading a weak reference makes a strong copy, and if
  /// another thread dropped the owner's last reference meanwhile, releasing that copy would run the
  /// owner's deinit (which may cancel its own token, taking this lock) under the lock.
  @usableFromInline
  final func sweep(_ candidates: [ExtendedNodeCore]) {
    let orphans = candidates.filter(\.isOrphaned)
    guard !orphans.isEmpty else { return }
    let garbage = state.withLock { state in
      orphans.map { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  // MARK: Removal and queries

  /// Removes ended nodes; releases them and their handlers after the lock is dropped.
  @usableFromInline
  final func remove(_ nodes: [HandlerNodeCore]) {
    let garbage = state.withLock { state in nodes.map { state.remove($0) } }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Ends every handler: called by the source's deinit.
  @usableFromInline
  final func close() {
    let garbage = state.withLock { state -> ContiguousArray<HandlerEntry> in
      state.isClosed = true
      let entries = state.entries
      forEachEntry(of: entries) { node, _ in _ = node.claimEnd() }
      state.entries = []
      state.liveCount = 0
      for node in state.ownerBound { node._withUnsafeGuaranteedRef { $0.ownerBoundIndex = -1 } }
      state.ownerBound = []
      state.sites = [:]
      return entries
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  package final func cancel(_ subscription: Subscription) {
    let node = unsafeDowncast(subscription, to: HandlerNodeCore.self)
    // Already ended: whoever ended it removes it (a one-shot's send, the owner sweep, `close()`).
    guard node.claimEnd() else { return }
    let garbage = state.withLock { $0.remove(node) }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Cancels a run of this list's tokens (a bag's) under one lock.
  package final func cancel(_ subscriptions: ArraySlice<Subscription>) {
    // The tokens are read in place, unretained: the caller's array keeps each alive, and a copy of
    // each would cost a retain and a release, twice per token.
    subscriptions.withUnsafeBufferPointer { tokens in
      guard let first = tokens.baseAddress else { return }
      func node(at index: Int) -> Unmanaged<HandlerNodeCore> {
        UnsafeRawPointer(first + index).load(as: Unmanaged<HandlerNodeCore>.self)
      }
      // Which tokens this call ended, in a temporary buffer (on the stack for a bag-sized run).
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: tokens.count) { endedHere in
        guard let endedHere = endedHere.baseAddress else { return }
        // Ends each node first; a node that another party ended (a one-shot's send, the owner
        // sweep, `close()`) is removed here or by that party, whichever comes first: `remove(_:)`
        // finds a node only in its own slot.
        var claimed = 0
        for index in 0..<tokens.count {
          let ended = node(at: index)._withUnsafeGuaranteedRef { $0.claimEnd() }
          (endedHere + index).initialize(to: ended)
          if ended { claimed += 1 }
        }
        guard claimed > 0 else { return }
        // The removed entries wait in a temporary buffer too, and are released after the lock, in
        // the tokens' order, one by one, in code compiled for the entry type. They are removed
        // newest first: a bag's tokens are usually the newest entries, each then taken off the end
        // instead of leaving a hole (nothing observes the order under the lock).
        withUnsafeTemporaryAllocation(of: HandlerEntry?.self, capacity: tokens.count) { garbage in
          guard let base = garbage.baseAddress else { return }
          var misplaced = false
          state.withLock { state in
            for index in (0..<tokens.count).reversed() {
              let removed = node(at: index)._withUnsafeGuaranteedRef { state.remove($0) }
              // A token this call ended whose entry is already gone is a token stored twice: its
              // entry went to its later position.
              if removed == nil, endedHere[index] { misplaced = true }
              (base + index).initialize(to: removed)
            }
          }
          if misplaced { Self.moveEntriesToFirstPositions(base, of: node, count: tokens.count, endedHere: endedHere) }
          for index in 0..<tokens.count { _ = (base + index).move() }
        }
      }
    }
  }

  /// For a run that holds a token twice, moves each removed entry from the token's later position
  /// to the first, the one this call ended, so that the entries are released as a cancel of each
  /// token in turn would release them. O(n) per token stored twice.
  @usableFromInline
  static func moveEntriesToFirstPositions(
    _ garbage: UnsafeMutablePointer<HandlerEntry?>,
    of node: (Int) -> Unmanaged<HandlerNodeCore>,
    count: Int,
    endedHere: UnsafeMutablePointer<Bool>
  ) {
    for target in 0..<count where endedHere[target] && garbage[target] == nil {
      let identity = node(target).toOpaque()
      for later in (target + 1)..<count where node(later).toOpaque() == identity && garbage[later] != nil {
        swap(&garbage[target], &garbage[later])
        break
      }
    }
  }

  package final func isCancelled(_ subscription: Subscription) -> Bool {
    unsafeDowncast(subscription, to: HandlerNodeCore.self).isEnded
  }

  package final func subscriptionWillDeinit(_ subscription: Subscription) {
    // Never called: a node is in state mode.
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
      state.entries.compactMap(\.node).map { state.sites[ObjectIdentifier($0)] }
    }
  }
}
