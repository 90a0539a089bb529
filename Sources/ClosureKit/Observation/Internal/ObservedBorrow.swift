// The write fast path of an `Observed` box: the one place it calls a handler without holding a
// reference to it (a borrow).
//
// Why: a write to one observer is the hot path (its budget, DESIGN.md: 3× a stored property write
// plus one closure call, the `observed-write` guard row), and even the registry's single-handler
// box (`SingleHandler.swift`), copied out of the lock as a send copies it, costs a retain and a
// release per write, a large share of it. So the delivering thread borrows the box instead: it
// calls it through `Unmanaged._withUnsafeGuaranteedRef`, and the call re-checks the node first
// (`SingleHandler.callIfLive`), so that after `cancel()` returns no call starts, as on every path.
//
// Invariants that make it safe:
// - the box is held strongly by the registry (`HandlerListState.single`) from its making until a
//   change of the registry drops it (`HandlerListState.changed()`, called by every transition that
//   changes the entries or their tags). An `Observed` box's registry keeps what a change drops
//   (`keepsDroppedSingle`, set by `ObservedState.init`), and every change of it goes through
//   `ObservedStorage.withRegistry` or `ObservedState.register`, which take the dropped box in the
//   same critical section and hand it to `retire(_:phase:)`; the registry's invariants check that
//   no dropped box is left behind;
// - a borrow is taken under the lock, only by the delivering thread (`DeliveryPhase` not `idle`)
//   and only when no other borrow is outstanding (`borrowed`), and ends when that thread leaves
//   (after its call has returned);
// - a box dropped while borrowed is *parked* in `ObservedState.retired` and the phase moved to
//   `queued` (`ObservedPhase.swift`), so that the delivering thread leaves under the lock, where it
//   takes what was parked and releases it after the lock; if the phase is already `idle`, the
//   borrow has ended and the box is released after the lock at once;
// - `verifyInvariants(phase:)` checks that the phase is `queued` whenever something is parked, and
//   (through the registry's own check) that a box exists only while the registry holds one entry,
//   and is that entry's (its node; here also its options). `ObservedBorrowTests` and
//   `ObservedRegistryModelTests` drive these paths.

public import Synchronization

extension ObservedState {
  /// The single observer's box (``SingleHandler``), as a write stores it.
  @usableFromInline typealias Single = SingleHandler<Change<Value>, ObservationOptions>

  /// For a write that this thread delivers at once: the registry's box of the one observer to
  /// tell, borrowed (``borrowed``), when there is exactly one, plain (immediate, no owner), not a
  /// one-shot and live when the box is made (a write checks its node again right before the
  /// call), and no borrow is outstanding. Only under the lock, with the phase not `idle`.
  @inlinable @inline(__always)
  mutating func borrowSingle() -> Unmanaged<Single>? {
    guard !borrowed else { return nil }
    if registry.single == nil {
      guard registry.entries.count == 1, registry.makeSingle() != nil else { return nil }
    }
    // Read in place, not returned by a call (a call returns its result retained).
    guard let single = registry.single else { return nil }
    borrowed = true
    return Unmanaged.passUnretained(single)
  }

  /// After a change of the registry that dropped `box`, the single observer's box it held: returns
  /// the box, to be released after the lock; or parks it (`nil`) while the delivering thread
  /// borrows it. Only under the lock.
  @inlinable
  mutating func retire(_ box: Single, phase: borrowing Atomic<DeliveryPhase>) -> Single? {
    guard borrowed else { return box }
    borrowed = false
    // Parked for the delivering thread, unless it has just left (the borrow has ended).
    switch Self.currentPhase(phase) {
    case .idle:
      return box
    case .delivering:
      guard Self.queueBehindDeliverer(phase) else { return box }
    case .queued:
      break
    }
    retired.append(box)
    return nil
  }
}
