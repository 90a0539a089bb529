import Synchronization

// The registry's state under its lock (split from HandlerList.swift by role).

/// The registrations of a ``HandlerList``, guarded by its lock. Not generic (see
/// ``HandlerNodeCore``).
@usableFromInline
struct HandlerListState {
  /// Live handlers in registration order, with holes left by removals until compaction.
  @usableFromInline var entries: ContiguousArray<HandlerEntry> = []
  /// The number of entries that are not holes.
  @usableFromInline var liveCount = 0
  /// The handlers registered with an owner, swept for dead owners on registration; may still
  /// hold nodes that ended since the last sweep. Unretained: a node is here only while `entries`
  /// holds it (both change together, under the lock), and a strong reference more would cost a
  /// retain and a release per registration. A sweep retains the ones it takes.
  @usableFromInline var ownerBound: [Unmanaged<ExtendedNodeCore>] = []
  /// Registrations since the last sweep of `ownerBound`.
  @usableFromInline var registrationsSinceSweep = 0
  /// Set by ``HandlerListCore/close()``: the source is gone and takes no more handlers.
  @usableFromInline var isClosed = false
  /// Where the live handlers were registered, for those registered while diagnostics were on
  /// (`DiagnosticsSwitch`); empty otherwise.
  @usableFromInline var sites: [ObjectIdentifier: RegistrationSite] = [:]

  @usableFromInline init() {}

  /// Removes `node`, which has ended, from the entries and the owner list. Returns its entry (the
  /// entries' reference to the node and its handler), to be released after the lock is dropped:
  /// the last release of the handler may run arbitrary deinit code.
  @usableFromInline
  mutating func remove(_ node: HandlerNodeCore) -> HandlerEntry? {
    node.withOwnerBound { extended in
      guard extended.ownerBoundIndex >= 0 else { return }
      let position = extended.ownerBoundIndex
      let last = ownerBound.removeLast()
      if last.toOpaque() != Unmanaged.passUnretained(extended).toOpaque() {
        ownerBound[position] = last
        last._withUnsafeGuaranteedRef { $0.ownerBoundIndex = position }
      }
      extended.ownerBoundIndex = -1
    }
    if !sites.isEmpty { sites[ObjectIdentifier(node)] = nil }
    let index = node.index
    // Identity checks read the nodes unretained (a copy of an entry's node is a retain and a
    // release).
    let isPresent = entries.withUnsafeBufferPointer { entries in
      guard index < entries.count, let base = entries.baseAddress else { return false }
      return HandlerEntry.node(at: base + index)?.toOpaque() == Unmanaged.passUnretained(node).toOpaque()
    }
    guard isPresent else { return nil }
    liveCount -= 1
    let removed: HandlerEntry
    if index == entries.count - 1 {
      // The newest (the common add-then-cancel): taken off the end, with no hole made and dropped.
      removed = entries.removeLast()
      // The holes it leaves trailing go too, so that they never build up to a compaction (the last
      // entry is never a hole); one at a time: `removeLast(_:)` goes through the general
      // `replaceSubrange`, and there are usually none.
      let trailingHoles = entries.withUnsafeBufferPointer { entries -> Int in
        guard let base = entries.baseAddress else { return 0 }
        var holes = 0
        while holes < entries.count, HandlerEntry.node(at: base + entries.count - 1 - holes) == nil { holes += 1 }
        return holes
      }
      for _ in 0..<trailingHoles { entries.removeLast() }
    } else {
      removed = entries.withUnsafeMutableBufferPointer { entries in
        let slot = entries.baseAddress.unsafelyUnwrapped + index
        defer { slot.initialize(to: .hole) }
        return slot.move()
      }
    }
    if liveCount == 0 {
      entries.removeAll(keepingCapacity: entries.count <= 1024)
    } else if entries.count >= 32, liveCount < entries.count / 2 {
      compact()
    }
    return removed
  }

  /// Closes the holes left by removals and renumbers the nodes.
  @usableFromInline
  mutating func compact() {
    var compacted = ContiguousArray<HandlerEntry>()
    compacted.reserveCapacity(Swift.max(liveCount * 2, 16))
    for entry in entries {
      guard let node = entry.node else { continue }
      let old = node.index
      let new = compacted.count
      if old != new {
        node.word.wrappingSubtract((old - new) << NodeBits.indexShift, ordering: .relaxed)
      }
      compacted.append(entry)
    }
    entries = compacted
  }

  /// Counts a registration, made after `newOwners` owner-bound handlers were appended (0 or 1);
  /// returns the owner-bound handlers to sweep now, or `nil`: at every registration while few
  /// handlers have an owner, else once every `ownerBound.count` registrations, so that registration
  /// stays amortised O(1). Never when the only one is the handler just registered: its caller
  /// holds its owner.
  @usableFromInline
  mutating func sweepCandidates(newOwners: Int) -> [ExtendedNodeCore]? {
    registrationsSinceSweep += 1
    guard ownerBound.count > newOwners,
      ownerBound.count <= 64 || registrationsSinceSweep >= ownerBound.count
    else { return nil }
    registrationsSinceSweep = 0
    return retainedOwnerBound()
  }

  /// The owner-bound handlers, retained: for a sweep after the lock is dropped.
  @usableFromInline
  func retainedOwnerBound() -> [ExtendedNodeCore] {
    ownerBound.map { $0.takeUnretainedValue() }
  }
}

/// Calls `body` with the node (unretained) and the handler (in place) of each entry of `entries`
/// that is not a hole, in order: no reference counting per entry.
@inlinable
func forEachEntry(
  of entries: ContiguousArray<HandlerEntry>,
  _ body: (HandlerNodeCore, UnsafePointer<ErasedHandler>) -> Void
) {
  entries.withUnsafeBufferPointer { entries in
    guard var entry = entries.baseAddress else { return }
    let end = entry + entries.count
    while entry < end {
      if let node = HandlerEntry.node(at: entry) {
        node._withUnsafeGuaranteedRef { body($0, HandlerEntry.handler(at: entry)) }
      }
      entry += 1
    }
  }
}
