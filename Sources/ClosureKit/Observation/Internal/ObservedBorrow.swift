// The write fast path of an `Observed` box: the one place it calls a handler without holding a
// reference to it (a borrow).
//
// Why: a write to one observer is the hot path (its budget, DESIGN.md: 3× a stored property write
// plus one closure call, the `observed-write` guard row), and copying the handler out of the
// registry for its call costs a retain and a release of what it captured, a large share of the
// write. So the first write that finds exactly one plain observer puts its handler and node in a
// box that the state keeps (`ObservedState.single`), and each write borrows the box: the
// delivering thread calls it through `Unmanaged._withUnsafeGuaranteedRef`. The call re-checks the
// node first (`callIfLive`), so that after `cancel()` returns no call starts, as on every path.
//
// Invariants that make it safe:
// - the box is held strongly by the state, from its making until a change of the registry drops
//   it. A change is a change of `HandlerListState.version`, which every transition of the registry
//   bumps (append, removal, close, `updateTags`); `ObservedStorage.withRegistry`, which every
//   change other than a registration goes through, compares it, and `ObservedState.register`
//   drops the box itself. So the box never outlives the registration's place in the registry by
//   more than the drop, and the state holds it while a write reads it;
// - a borrow is taken under the lock, only by the delivering thread (`DeliveryPhase` not `idle`)
//   and only when no other borrow is outstanding (`borrowed`), and ends when that thread leaves
//   (after its call has returned);
// - a box dropped while borrowed is *parked* in `ObservedState.retired` and the phase moved to
//   `queued` (`ObservedPhase.swift`), so that the delivering thread leaves under the lock, where it
//   takes what was parked and releases it after the lock; if the phase is already `idle`, the
//   borrow has ended and the box is released after the lock at once;
// - `verifyInvariants(phase:)` checks that the phase is `queued` whenever something is parked, and
//   that a box exists only while the registry holds one entry, and is that entry's (its node, its
//   options). `ObservedBorrowTests` and `ObservedRegistryModelTests` drive these paths.

public import Synchronization

/// The handler of the one observer of an `Observed` box, in an immutable object that a write can
/// borrow (see the top of this file).
///
/// `@unchecked Sendable`: immutable, and the closure is `@Sendable`.
@usableFromInline
final class ObservedHandlerBox<Value: Sendable>: @unchecked Sendable {
  /// The observer's handler (a copy of its registry entry's).
  @usableFromInline let call: @Sendable (Change<Value>) -> Void
  /// The observer's node, whose state a write checks right before the call (a cancel that has
  /// returned means no call starts).
  @usableFromInline let node: HandlerNode

  @inlinable
  init(_ call: @escaping @Sendable (Change<Value>) -> Void, node: HandlerNode) {
    self.call = call
    self.node = node
  }

  /// Calls the handler unless its observer has ended.
  @inlinable @inline(__always)
  func callIfLive(_ change: Change<Value>) {
    if !node.hasEnded { call(change) }
  }
}

extension ObservedState {
  /// For a write that this thread delivers at once: the box of the one observer to tell, borrowed
  /// (``borrowed``), when there is exactly one, plain (immediate, no owner), not a one-shot and
  /// live when the box is made (a write checks its node again right before the call), and no borrow
  /// is outstanding. Only under the lock, with the phase not `idle`.
  @inlinable @inline(__always)
  mutating func borrowSingle() -> (Unmanaged<ObservedHandlerBox<Value>>, ObservationOptions)? {
    guard !borrowed, registry.entries.count == 1 else { return nil }
    if single == nil {
      let handler = HandlerListState.singlePlainHandler(in: registry.entries)
      guard let handler else { return nil }
      single = ObservedHandlerBox(handler.call, node: registry.entries[0].node)
      singleOptions = registry.entries[0].tag
    }
    guard let single else { return nil }
    borrowed = true
    return (Unmanaged.passUnretained(single), singleOptions)
  }

  /// After a change of the registry: drops the single observer's box. Returns it, to be released
  /// after the lock; or parks it (`nil`) while the delivering thread borrows it. Only under the
  /// lock.
  @inlinable
  mutating func dropSingle(phase: borrowing Atomic<DeliveryPhase>) -> ObservedHandlerBox<Value>? {
    guard let box = single else { return nil }
    single = nil
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
