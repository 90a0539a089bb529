// The send path: the one place the registry reads its entries through a pointer.
//
// Why: a send is the hot path (its budgets, DESIGN.md: 2.3× a plain closure call for one handler,
// 1.1× for a hundred; the `send-N` guard rows), and iterating the snapshot by value copies each entry, a retain and a release of its
// node and of its handler's context. Reading through the snapshot's buffer lets the compiler borrow
// the node's fields in place; only the handler is copied for its call, as a plain `[closure]`
// loop copies it.
//
// Invariants that make it safe:
// - the buffer is the snapshot's own (`withUnsafeBufferPointer` on a local copy of the entries):
//   nothing else writes it, and it lives for the whole loop, so every entry and node read through
//   it stays alive;
// - every read is of an initialised element inside `0..<count` (`for position in entries.indices`),
//   through the buffer's typed pointer: no raw offsets, no rebinding;
// - a node is used unretained (`Unmanaged._withUnsafeGuaranteedRef`) only while its entry is in
//   the snapshot, which holds it;
// - a send never writes the snapshot; removals happen on the list's own entries, under its lock.
// `verifyInvariants()` checks the list's side; the snapshot is a value no one else can reach.

extension RegistryHost {
  /// Calls every live handler, in registration order.
  ///
  /// With one live handler, plain and not a one-shot (the common case), the send copies that
  /// handler's box under the lock instead of the entry array, and calls it unless its node has
  /// ended meanwhile (`SingleHandler.swift`): the fast path saves the array's retain and release,
  /// and gives the same guarantee as the loop: after `cancel()` returns, no call starts.
  @inlinable
  func send(_ payload: Payload) {
    var snapshot = ContiguousArray<Entry>()
    let single = withRegistry { state -> SingleHandler<Payload, Tag>? in
      if let single = state.singleHandler() { return single }
      snapshot = HandlerListState.snapshot(of: state.entries)
      return nil
    }
    if let single {
      single.callIfLive(payload)
    } else {
      deliverOutOfLine(payload, to: snapshot)
    }
  }

  /// ``deliver(_:to:)``, out of line: inlined, the loop made `send` too large for its callers to
  /// inline, which cost the single-handler path a call.
  @inlinable @inline(never)
  func deliverOutOfLine(_ payload: Payload, to snapshot: ContiguousArray<Entry>) {
    deliver(payload, to: snapshot)
  }

  /// Calls every live handler whose tag matches, in registration order.
  @inlinable
  func send(_ payload: Payload, matching match: (Tag) -> Bool) {
    let snapshot = withRegistry { state in
      var matching = ContiguousArray<Entry>()
      for position in state.entries.indices where state.isLive(at: position) && match(state.entries[position].tag) {
        matching.append(state.entries[position])
      }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// Calls the live handlers of `snapshot`, then removes those that ended on the way.
  @inlinable
  func deliver(_ payload: Payload, to snapshot: ContiguousArray<Entry>) {
    deliver(to: snapshot) { _ in payload }
  }

  /// Calls the live handlers of `snapshot` with the payload `payloadFor` makes from each one's tag
  /// (skipping those for which it makes none), then removes those that ended on the way.
  ///
  /// Each entry is read in place through `pointee` (an addressor), its node unretained (the
  /// snapshot holds it); the handler is copied for its call, as a `[closure]` loop copies it.
  @inlinable
  func deliver(to snapshot: ContiguousArray<Entry>, payloadFor: (Tag) -> Payload?) {
    var ended: [HandlerNode] = []
    snapshot.withUnsafeBufferPointer { entries in
      guard let first = entries.baseAddress else { return }
      for position in entries.indices {
        let entry = first + position
        guard let payload = payloadFor(entry.pointee.tag) else { continue }
        let isCalled = Unmanaged.passUnretained(entry.pointee.node)._withUnsafeGuaranteedRef { node in
          guard node.isPlain else {
            deliver(payload, to: entry.pointee, ended: &ended)
            return false
          }
          if node.isOnce {
            guard node.end() else { return false }
            ended.append(node)
            return true
          }
          return !node.hasEnded  // also skips holes, whose node is always ended
        }
        if isCalled { entry.pointee.handler(payload) }
      }
    }
    if !ended.isEmpty { remove(ended) }
  }
}
