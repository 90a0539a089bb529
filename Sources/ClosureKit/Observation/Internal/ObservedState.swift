// The state of an `Observed` box under its lock: a value type whose transitions return what the
// calling thread does after the lock (deliver a change, release an old value, nothing).

public import Synchronization

/// The value of an `Observed` box, its observers (the one registry, ``HandlerListState``) and who
/// delivers their callbacks, guarded by the box's ``GateLock``.
///
/// The callbacks are delivered by one thread at a time, the *delivering thread*: a writer that
/// finds nobody delivering becomes it, delivers its own change, then every change queued meanwhile,
/// and leaves; a writer that finds another thread delivering queues its change and returns at once.
/// So observers see the changes in write order, one write's callbacks never interleave with
/// another's, and no writer waits for another writer's handlers. A write made by a handler on the
/// delivering thread is delivered at once (depth-first) when nothing is queued, else queued.
///
/// Who delivers is the ``DeliveryPhase`` the transitions are handed (`phase`; its protocol, and
/// every change of it, is in `ObservedPhase.swift`) and, while it is not `idle`, ``deliverer``.
///
/// Invariants (``verifyInvariants(phase:)``, asserted after every transition while the box has few
/// observers):
/// - changes are queued exactly while the phase is `queued` (under the lock), and every queued slot
///   from `pendingHead` on holds a change;
/// - `modifier != nil` exactly while `modifyDepth > 0`;
/// - `shownValue != nil` only while `shownBy == sequence` (no later write replaced it);
/// - the registry's box for the single observer (``HandlerListState/single``) has that entry's
///   options, and boxes are parked (``retired``) only in the `queued` phase (see
///   `ObservedBorrow.swift`);
/// - the registry's own (``HandlerListState/verifyInvariants()``).
@usableFromInline
struct ObservedState<Value: Sendable> {
  @usableFromInline typealias Entry = HandlerEntry<Change<Value>, ObservationOptions>

  /// The observers, each entry's tag its options.
  @usableFromInline var registry = HandlerListState<Change<Value>, ObservationOptions>()
  /// The value of the last write.
  @usableFromInline var value: Value
  /// While the prior callbacks of a write delivered at once run: the value reads show (the old
  /// one). `nil` otherwise, and as soon as another write is stored.
  @usableFromInline var shownValue: Value?
  /// The write that set ``shownValue``.
  @usableFromInline var shownBy = 0
  /// While the delivering thread runs a change's prior callbacks: a write or an initial callback
  /// it makes meanwhile is queued behind that change, not delivered at once (depth-first, its post
  /// callbacks would come before the prior change's own).
  @usableFromInline var isInPrior = false
  /// The number of writes so far.
  @usableFromInline var sequence = 0
  /// Changes waiting for the delivering thread, in write order, from ``pendingHead`` on.
  @usableFromInline var pending: ContiguousArray<ObservedChange<Value>?> = []
  /// The index of the next change to deliver in ``pending``.
  @usableFromInline var pendingHead = 0
  /// The delivering thread (``currentThreadHandle``: it is alive while it delivers); meaningful
  /// only while the phase is not `idle`.
  @usableFromInline var deliverer = 0
  /// The thread running a `modify` body (``currentThreadHandle``: alive while it does), or `nil`.
  @usableFromInline var modifier: Int?
  /// How many `modify` bodies the ``modifier`` runs (nested ones included).
  @usableFromInline var modifyDepth = 0
  /// Whether the delivering thread calls the registry's single observer box
  /// (``HandlerListState/single``) unretained; meaningful only while the phase is not `idle` (see
  /// `ObservedBorrow.swift`).
  @usableFromInline var borrowed = false
  /// Boxes dropped while borrowed, kept until the delivering thread leaves.
  @usableFromInline var retired: [Single] = []
  /// How many observers ever asked for ``ObservationOptions/prior``: while none did, a write
  /// looks for none.
  @usableFromInline var priorRegistrations = 0

  @inlinable
  init(value: Value) {
    self.value = value
    // The delivering thread borrows the registry's single observer box: a change hands it over to
    // be retired, not released (`ObservedBorrow.swift`).
    registry.keepsDroppedSingle = true
  }

  /// Whether the box has few observers, so that debug builds check the invariants after every
  /// transition (the check is O(n)).
  @inlinable var isSmall: Bool {
    registry.entries.count <= HandlerListState<Change<Value>, ObservationOptions>.checkedSize
  }

  /// Whether a change waits for the delivering thread.
  @inlinable var hasPending: Bool { pendingHead < pending.count }

  /// What reads return: the old value while a write's prior callbacks run, else the value.
  @inlinable var readValue: Value { shownValue ?? value }

  /// Whether a write by thread `me` must wait: another thread runs a `modify` body.
  @inlinable
  func isGated(for me: Int) -> Bool {
    if let modifier { return modifier != me }
    return false
  }

  // MARK: Transitions

  /// Stores `new` as the next write by thread `me` (ending its `modify` body if `endingModify`).
  /// Sets `observers` to the observers this thread tells now, unless it borrows the single
  /// observer's box (``ObservedWrite/borrowed``) or tells nobody.
  @inlinable @inline(__always)
  mutating func write(
    _ new: Value,
    by me: Int,
    endingModify: Bool,
    observers: inout ContiguousArray<Entry>,
    phase: borrowing Atomic<DeliveryPhase>
  ) -> ObservedWrite<Value> {
    assert(!isGated(for: me), "Observed: a write while another thread modifies")
    defer { assert(isSmall ? verifyInvariants(phase: phase) : true) }
    if endingModify { endModify() }
    let old = value
    value = new
    shownValue = nil
    sequence &+= 1
    guard registry.liveCount > 0 else { return ObservedWrite(old: old) }
    let step = schedule(by: me, phase: phase)
    if step == .queue {
      pending.append(
        ObservedChange(
          old: old, new: new, observers: HandlerListState.snapshot(of: registry.entries), version: registry.version))
      return ObservedWrite(old: old)
    }
    guard priorRegistrations > 0, Self.hasPriorObserver(in: registry.entries) else {
      if let box = borrowSingle() {
        return ObservedWrite(old: old, borrowed: box, step: step)
      }
      observers = HandlerListState.snapshot(of: registry.entries)
      return ObservedWrite(old: old, step: step)
    }
    // Delivered at once: reads show the old value until the prior callbacks have run.
    shownValue = old
    shownBy = sequence
    isInPrior = true
    observers = HandlerListState.snapshot(of: registry.entries)
    return ObservedWrite(old: old, step: step, showsPriorOf: sequence)
  }

  /// Registers `entry` (``HandlerListState/register(_:extended:site:)``); with `initial`, also
  /// schedules its initial callback, in its place among the writes.
  @inlinable
  mutating func register(
    _ entry: __owned Entry,
    extended: ExtendedNode?,
    site: RegistrationSite?,
    initial: Bool,
    by me: Int,
    phase: borrowing Atomic<DeliveryPhase>
  ) -> ObservedRegistration<Value> {
    defer { assert(isSmall ? verifyInvariants(phase: phase) : true) }
    let isPrior = entry.tag.contains(.prior)
    let outcome = registry.register(entry, extended: extended, site: site)
    let dropped = registry.takeDroppedSingle().flatMap { retire($0, phase: phase) }
    guard outcome.isAppended else { return ObservedRegistration(outcome, dropped: dropped, by: me) }
    if isPrior { priorRegistrations += 1 }
    guard initial else { return ObservedRegistration(outcome, dropped: dropped, by: me) }
    let change = ObservedChange(initial: value, for: entry)
    let step = schedule(by: me, phase: phase)
    guard step != .queue else {
      pending.append(change)
      return ObservedRegistration(outcome, dropped: dropped, by: me)
    }
    return ObservedRegistration(outcome, initial: change, step: step, dropped: dropped, by: me)
  }

  /// Whether this thread delivers a change now (nobody delivers: it becomes the delivering
  /// thread; or it is the delivering thread and nothing is queued); else `queue`: the caller
  /// appends the change to ``pending`` before the lock is released.
  @inlinable @inline(__always)
  mutating func schedule(by me: Int, phase: borrowing Atomic<DeliveryPhase>) -> ObservedStep {
    switch Self.currentPhase(phase) {
    case .idle:
      break
    case .delivering:
      if deliverer == me && !isInPrior { return .deliver }
      // Queued for the delivering thread, unless it has just left.
      if Self.queueBehindDeliverer(phase) { return .queue }
    case .queued:
      // Queued changes, or only a parked box (ObservedBorrow.swift): a handler's write is still
      // delivered at once when no change waits.
      return deliverer == me && !hasPending && !isInPrior ? .deliver : .queue
    }
    enterDelivering(me, phase: phase)
    return .deliverAndLeave
  }

  /// On the delivering thread, after a change, when its lock-free leave failed (the phase is
  /// `queued`): the next queued change to deliver; or `nil`, having left (in the same critical
  /// section, so no change is left behind). Taking the last queued change sets the phase back to
  /// `delivering`, so that the next leave needs no lock. Also ends the thread's borrow, and hands
  /// back what was parked for it (see `ObservedBorrow.swift`).
  ///
  /// Queued writes are taken together with the writes queued right after them for the same
  /// observers, as one change, from the first one's old value to the last one's new value: so a
  /// handler is not handed values that later writes have already replaced (two boxes bound both
  /// ways by handlers that copy `newValue` chased each other forever with such values). The changes
  /// merged away are handed back too (`merged`): their values and observer snapshots may be the
  /// last references to user objects, released by the caller after the lock.
  @inlinable
  mutating func leave(
    _ me: Int,
    phase: borrowing Atomic<DeliveryPhase>
  ) -> (next: ObservedChange<Value>?, parked: [Single], merged: [ObservedChange<Value>]) {
    precondition(deliverer == me, "Observed: leave by a thread that is not delivering")
    // The thread's calls have returned: its borrow has ended, and what was parked for it can go
    // (released by the caller, after the lock).
    borrowed = false
    let parked = retired
    if !retired.isEmpty { retired = [] }
    guard hasPending, let first = pending[pendingHead] else {
      Self.endDelivering(phase)
      return (nil, parked, [])
    }
    pending[pendingHead] = nil
    pendingHead += 1
    var taken = first
    var merged: [ObservedChange<Value>] = []
    if !first.isInitial, let old = first.old {
      while hasPending, let later = pending[pendingHead], later.version == first.version {
        pending[pendingHead] = nil
        pendingHead += 1
        merged.append(taken)
        taken = ObservedChange(old: old, new: later.new, observers: first.observers, version: first.version)
        merged.append(later)
      }
    }
    if !hasPending {
      pending.removeAll(keepingCapacity: pending.count <= 64)
      pendingHead = 0
      Self.resumeDelivering(phase)
    }
    assert(verifyInvariants(phase: phase))
    return (taken, parked, merged)
  }

  /// After the prior callbacks of write `sequence`, delivered at once: reads show the value again
  /// (unless a later write already did).
  @inlinable
  mutating func endPrior(of sequence: Int) {
    isInPrior = false
    if shownBy == sequence { shownValue = nil }
  }

  /// Starts a `modify` body on thread `me` (not gated: ``isGated(for:)``); returns the value to
  /// modify.
  @inlinable
  mutating func beginModify(by me: Int) -> Value {
    assert(!isGated(for: me), "Observed: a modify while another thread modifies")
    modifier = me
    modifyDepth += 1
    return value
  }

  /// Ends a `modify` body; the outermost one lets the gated writers go.
  @inlinable
  mutating func endModify() {
    precondition(modifyDepth > 0, "Observed: a modify ended twice")
    modifyDepth -= 1
    if modifyDepth == 0 { modifier = nil }
  }

  /// Whether an observer wants prior callbacks (looked for only once one ever asked,
  /// ``priorRegistrations``).
  @inlinable
  static func hasPriorObserver(in entries: ContiguousArray<Entry>) -> Bool {
    entries.contains { !$0.isHole && $0.tag.contains(.prior) }
  }

  // MARK: Invariants

  /// Checks the invariants listed on the type; traps with a message on the first broken one.
  /// Returns `true`, so that it can stand in an `assert`.
  @inlinable
  func verifyInvariants(phase: borrowing Atomic<DeliveryPhase>) -> Bool {
    let current = Self.currentPhase(phase)
    precondition(
      (hasPending || !retired.isEmpty) == (current == .queued),
      "Observed: changes queued or handlers parked, but not in the queued phase")
    precondition(pending[pendingHead...].allSatisfy { $0 != nil }, "Observed: a hole in the queue")
    precondition(
      pending.allSatisfy { $0 == nil || $0!.isInitial == ($0!.old == nil) }, "Observed: a write without its old value")
    precondition((modifier != nil) == (modifyDepth > 0), "Observed: modifier and depth disagree")
    precondition(shownValue == nil || shownBy == sequence, "Observed: an old value shown after a write")
    precondition(registry.droppedSingle == nil, "Observed: a dropped single observer box not retired")
    if let single = registry.single, let entry = registry.entries.first {
      precondition(single.tag == entry.tag, "Observed: the single box's options are stale")
    }
    return registry.verifyInvariants()
  }
}
