// The write fast path of an `Observed` box: the one place it calls a handler without holding a
// reference to it (a borrow).
//
// Why: a write to one observer is the hot path (its budget is 2× a stored closure call), and
// copying the handler out of the registry for its call costs a retain and a release of what it
// captured, a fifth of the write. So when a write finds one plain observer, the delivering thread
// borrows that observer's `ObservedHandlerBox` (`ObservedState.borrowed`) and calls it through
// `Unmanaged._withUnsafeGuaranteedRef`.
//
// Invariants that make it safe:
// - a box lives as long as its registry entry, whose handler closure holds it; the entry's tag
//   names it `unowned(unsafe)`, read only under the box's lock while the entry is in the registry;
// - a borrow is taken under the lock, only by the thread that becomes or is the delivering thread
//   (`DeliveryPhase` is not `idle`) and only when no other borrow is outstanding, and ends when that
//   thread leaves (after its call has returned);
// - every removal of an entry goes through `ObservedStorage.withRegistry`, which first *parks* an
//   outstanding borrow: it takes a strong reference to the box into `ObservedState.retired` and
//   moves the phase to `queued`, so that the delivering thread leaves under the lock, where it
//   releases what was parked. If the phase is already `idle`, the borrow has ended: nothing to park;
// - `verifyInvariants(phase:)` checks that the phase is `queued` whenever something is parked.

public import Synchronization

/// The handler of one observer of an `Observed` box, in an immutable object that a write can
/// borrow (see the top of this file).
///
/// `@unchecked Sendable`: immutable, and the closure is `@Sendable`.
@usableFromInline
final class ObservedHandlerBox<Value: Sendable>: @unchecked Sendable {
  /// The user's handler.
  @usableFromInline let call: @Sendable (Change<Value>) -> Void

  @inlinable
  init(_ call: @escaping @Sendable (Change<Value>) -> Void) {
    self.call = call
  }
}

/// What the registry files an `Observed` observer under: its options, and its handler's box,
/// named without a reference (the entry's handler closure holds the box; a hole left by the
/// entry's removal keeps the tag, and must not keep the handler's captures).
///
/// `@unchecked Sendable`: the options are a value; `box` is only read under the box's lock while
/// its entry is in the registry.
@usableFromInline
struct ObservedTag<Value: Sendable>: @unchecked Sendable {
  /// What the observer asked to be told.
  @usableFromInline let options: ObservationOptions
  /// The observer's handler; valid while its entry is in the registry.
  @usableFromInline unowned(unsafe) let box: ObservedHandlerBox<Value>

  @inlinable
  init(options: ObservationOptions, box: ObservedHandlerBox<Value>) {
    self.options = options
    self.box = box
  }
}

extension ObservedState {
  /// For a write that this thread delivers at once: the box of the one observer to tell, borrowed
  /// (``borrowed``), when there is exactly one, plain (immediate, no owner), not a one-shot, live,
  /// and no borrow is outstanding. Only under the lock, with the phase not `idle`.
  @inlinable @inline(__always)
  mutating func borrowSingle() -> (Unmanaged<ObservedHandlerBox<Value>>, ObservationOptions)? {
    guard borrowed == nil, registry.entries.count == 1 else { return nil }
    let single = registry.entries.withUnsafeBufferPointer { entries -> ObservedTag<Value>? in
      guard let entry = entries.baseAddress else { return nil }
      let isCalled = Unmanaged.passUnretained(entry.pointee.node)._withUnsafeGuaranteedRef { node in
        node.isPlain && !node.isOnce && !node.hasEnded
      }
      return isCalled ? entry.pointee.tag : nil
    }
    guard let single else { return nil }
    let box = Unmanaged.passUnretained(single.box)
    borrowed = box
    return (box, single.options)
  }

  /// Before any change of the registry: parks an outstanding borrow (see the top of this file).
  /// Only under the lock.
  @inlinable
  mutating func parkBorrowed(phase: borrowing Atomic<DeliveryPhase>) {
    guard let box = borrowed else { return }
    borrowed = nil
    switch phase.load(ordering: .acquiring) {
    case .idle:
      return  // its thread has left: the borrow has ended
    case .delivering:
      // Make the delivering thread leave under the lock, unless it has just left.
      guard phase.compareExchange(expected: .delivering, desired: .queued, ordering: .acquiringAndReleasing).exchanged
      else { return }
    case .queued:
      break
    }
    retired.append(box.takeUnretainedValue())
  }
}
