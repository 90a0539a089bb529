// The registry's state under its lock: a value type whose transitions return what to release.

/// The registrations of a ``HandlerList``, guarded by its lock.
///
/// Invariants (``verifyInvariants()``, asserted after every change while the list is small, and run
/// by the randomized model test after every operation):
/// - `entries[i].node.index == i` for every entry that is not a hole, and a removed node's index
///   is -1;
/// - `liveCount` is the number of entries that are not holes, and the last entry is never a hole;
/// - `ownerBound[i].ownerSlot == i`, and every node there is an owner-bound node in `entries`;
/// - once `isClosed`, there are no entries;
/// - the single handler's box belongs to the one entry (`SingleHandler.swift`).
@usableFromInline
struct HandlerListState<Payload, Tag> {
  @usableFromInline typealias Entry = HandlerEntry<Payload, Tag>

  /// Live handlers in registration order, with holes left by removals until compaction.
  @usableFromInline var entries: ContiguousArray<Entry> = []
  /// The number of entries that are not holes.
  @usableFromInline var liveCount = 0
  /// The owner-bound handlers, swept for dead owners on registration; may still hold nodes that
  /// ended since the last sweep (a node leaves with its entry).
  @usableFromInline var ownerBound: [ExtendedNode] = []
  /// Registrations since the last sweep of `ownerBound`.
  @usableFromInline var registrationsSinceSweep = 0
  /// Set by ``HandlerList/close()``: the source is gone and takes no more handlers.
  @usableFromInline var isClosed = false
  /// Where the live handlers were registered, for those registered while diagnostics were on
  /// (`DiagnosticsSwitch`); empty otherwise.
  @usableFromInline var sites: [ObjectIdentifier: RegistrationSite] = [:]
  /// Counts the changes of the handlers (each append, removal and close) and of their tags (each
  /// `updateTags`), so that two snapshots with the same version hold the same handlers and tags.
  @usableFromInline var version = 0
  /// The one entry's handler in a box that deliveries take instead of the entries, made by the
  /// first delivery that finds one plain entry and dropped by every change (``changed()``; see
  /// `SingleHandler.swift`).
  @usableFromInline var single: SingleHandler<Payload, Tag>?
  /// Whether a change hands the dropped box to the host (``droppedSingle``) instead of releasing it:
  /// set by a host that borrows the box (an `Observed` box; `SingleHandler.swift`).
  @usableFromInline var keepsDroppedSingle = false
  /// The box the last change dropped, while ``keepsDroppedSingle``, until the host takes it within
  /// the same critical section.
  @usableFromInline var droppedSingle: SingleHandler<Payload, Tag>?
  /// The ``version`` at which the one entry was found not to qualify for a box (owner-bound, not
  /// immediate, a one-shot or ended), so that deliveries do not look again until a change; -1.
  @usableFromInline var singleRefusedAt = -1

  @inlinable init() {}

  /// The size up to which every change is followed by ``verifyInvariants()`` in debug builds (it
  /// is O(n)); the model test checks larger lists itself.
  @inlinable static var checkedSize: Int { 64 }

  // MARK: Transitions

  /// A registration: appends `entry` (``append(_:extended:)``), records its site while diagnostics
  /// are on, and counts it for the owner sweep (``sweepCandidates(newOwners:)``). The registering
  /// thread finishes it after the lock (``RegistryHost/finish(_:of:extended:site:)``).
  @inlinable
  mutating func register(
    _ entry: __owned Entry,
    extended: ExtendedNode?,
    site: RegistrationSite?
  ) -> RegistrationOutcome {
    let node = entry.node
    let newOwners = extended?.isOwnerBound == true ? 1 : 0
    guard append(entry, extended: extended) else { return RegistrationOutcome(isAppended: false, sweep: nil) }
    if let site { sites[ObjectIdentifier(node)] = site }
    return RegistrationOutcome(isAppended: true, sweep: sweepCandidates(newOwners: newOwners))
  }

  /// Appends `entry`; `extended` is its node when that is an ``ExtendedNode``. Returns `false`,
  /// having changed nothing, when the list is closed: the caller ends the node.
  @inlinable
  mutating func append(_ entry: __owned Entry, extended: ExtendedNode?) -> Bool {
    guard !isClosed else { return false }
    entry.node.index = entries.count
    if let extended, extended.isOwnerBound {
      extended.ownerSlot = ownerBound.count
      ownerBound.append(extended)
    }
    entries.append(entry)
    liveCount += 1
    changed()
    assert(entries.count > Self.checkedSize || verifyInvariants())
    return true
  }

  /// Removes `node`, which has ended, from the entries and the owner list. Returns its entry, to
  /// be released after the lock is dropped (the last release of the handler may run arbitrary
  /// deinit code), or `nil` if the node was not here (already removed, or never added).
  @inlinable
  mutating func remove(_ node: HandlerNode) -> Entry? {
    let index = node.index
    guard index >= 0, index < entries.count, entries[index].node === node else { return nil }
    if !node.isPlain, let extended = node as? ExtendedNode, extended.ownerSlot >= 0 {
      unbindOwner(extended)
    }
    if !sites.isEmpty { sites[ObjectIdentifier(node)] = nil }
    node.index = -1
    liveCount -= 1
    changed()
    let removed: Entry
    if index == entries.count - 1 {
      // The newest (the common add-then-cancel): taken off the end, with the holes it leaves
      // trailing, so that they never build up to a compaction.
      removed = entries.removeLast()
      while hasHoles, entries.last?.isHole == true { entries.removeLast() }
    } else {
      var hole = Entry(holeFor: entries[index])
      swap(&hole, &entries[index])
      removed = hole
    }
    if liveCount == 0 {
      entries.removeAll(keepingCapacity: entries.capacity <= 1024)
    } else if entries.count >= 32, liveCount < entries.count / 2 {
      compact()
    }
    assert(entries.count > Self.checkedSize || verifyInvariants())
    return removed
  }

  /// The entries, for a send or a write to deliver outside the lock. Shares the buffer in release
  /// builds (one reference-count increment; a later change copies it). A buffer of its own in
  /// debug builds, where ThreadSanitizer runs: it cannot see the reference counts that order a
  /// shared buffer's reads before a later in-place change.
  @inlinable
  static func snapshot(of entries: ContiguousArray<Entry>) -> ContiguousArray<Entry> {
    #if DEBUG
      var copy = ContiguousArray<Entry>()
      copy.reserveCapacity(entries.count)
      copy.append(contentsOf: entries)
      return copy
    #else
      return entries
    #endif
  }

  /// Whether some entries are holes; when not, loops need not look (a hole check reads the node).
  @inlinable
  var hasHoles: Bool { liveCount != entries.count }

  /// Whether the entry at `position` is live, not a hole.
  @inlinable
  func isLive(at position: Int) -> Bool {
    !hasHoles || !entries[position].isHole
  }

  /// Takes `node` out of `ownerBound`, moving the last one into its slot.
  @inlinable
  mutating func unbindOwner(_ node: ExtendedNode) {
    let slot = node.ownerSlot
    let last = ownerBound.removeLast()
    if last !== node {
      ownerBound[slot] = last
      last.ownerSlot = slot
    }
    node.ownerSlot = -1
  }

  /// Closes the holes left by removals and renumbers the nodes.
  @inlinable
  mutating func compact() {
    var compacted = ContiguousArray<Entry>()
    compacted.reserveCapacity(Swift.max(liveCount * 2, 16))
    for entry in entries where !entry.isHole {
      entry.node.index = compacted.count
      compacted.append(entry)
    }
    entries = compacted
  }

  /// Closes the list: every node ends and leaves. Returns the entries, to be released after the
  /// lock is dropped.
  @inlinable
  mutating func close() -> ContiguousArray<Entry> {
    isClosed = true
    changed()
    let taken = entries
    for entry in taken where !entry.isHole {
      _ = entry.node.end()
      entry.node.index = -1
    }
    for node in ownerBound { node.ownerSlot = -1 }
    entries = []
    liveCount = 0
    ownerBound = []
    sites = [:]
    assert(verifyInvariants())
    return taken
  }

  /// Counts a registration, made after `newOwners` owner-bound handlers were appended (0 or 1);
  /// returns the owner-bound handlers to sweep now, or `nil`: at every registration while few
  /// handlers have an owner, else once every `ownerBound.count` registrations, so that registration
  /// stays amortised O(1). Never when the only one is the handler just registered: its caller
  /// holds its owner.
  @inlinable
  mutating func sweepCandidates(newOwners: Int) -> [ExtendedNode]? {
    registrationsSinceSweep += 1
    guard ownerBound.count > newOwners,
      ownerBound.count <= 64 || registrationsSinceSweep >= ownerBound.count
    else { return nil }
    registrationsSinceSweep = 0
    return ownerBound
  }

  // MARK: Invariants

  /// Checks the invariants listed on the type; traps with a message on the first broken one.
  /// Returns `true`, so that it can stand in an `assert`.
  @inlinable
  func verifyInvariants() -> Bool {
    var live = 0
    for (position, entry) in entries.enumerated() where !entry.isHole {
      live += 1
      precondition(entry.node.index == position, "registry: a node's index is not its position")
    }
    precondition(live == liveCount, "registry: liveCount is not the number of live entries")
    precondition(entries.last?.isHole != true, "registry: a hole at the end of the entries")
    precondition(HandlerListSource.holeNode.hasEnded, "registry: the hole node is live")
    for (slot, node) in ownerBound.enumerated() {
      precondition(node.isOwnerBound && node.ownerSlot == slot, "registry: an owner slot is wrong")
      precondition(
        node.index >= 0 && node.index < entries.count && entries[node.index].node === node,
        "registry: an owner-bound node is not in the entries")
    }
    precondition(!isClosed || entries.isEmpty, "registry: a closed list has entries")
    verifySingle()
    return true
  }
}

/// What a registration under the lock leaves for its thread to do after it.
@usableFromInline
struct RegistrationOutcome {
  /// `false` when the source was closed: the node is ended instead.
  @usableFromInline let isAppended: Bool
  /// The owner-bound handlers to sweep for dead owners, or `nil`.
  @usableFromInline let sweep: [ExtendedNode]?

  @inlinable
  init(isAppended: Bool, sweep: [ExtendedNode]?) {
    self.isAppended = isAppended
    self.sweep = sweep
  }
}
