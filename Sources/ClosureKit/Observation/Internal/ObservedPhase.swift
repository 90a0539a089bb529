// Who delivers an `Observed` box's callbacks: the one piece of the box's state that a thread
// changes without the lock. Every read and change of it is in this file.
//
// Why outside the lock: a write to a box whose changes nobody else is delivering takes the lock
// once (store the value, become the delivering thread, take the observers), calls them, and then
// leaves. Leaving under the lock would be a second lock round per write, on a write already at
// or above its budget (DESIGN.md: 3× a stored property write plus a closure call; the
// `observed-write` guard row); leaving without it is one compare-and-swap.
//
// The protocol (each operation asserts the phase it starts from):
// - `idle` -> `delivering`: under the lock, by the thread that becomes the delivering thread
//   (`ObservedState.enterDelivering`).
// - `delivering` -> `queued`: under the lock, by a compare-and-swap, by a thread that queues a
//   change for the delivering thread, or parks a borrowed box for it (`queueBehindDeliverer`).
// - `delivering` -> `idle`: WITHOUT the lock, by a compare-and-swap, only by the delivering thread
//   once its calls have returned (`ObservedStorage.leaveWithoutLock`). The one transition made
//   outside the lock: the compare-and-swaps of the two lines above decide which of the two
//   happened first, and the loser sees the winner's result (a writer that finds `idle` becomes the
//   delivering thread itself; a delivering thread that finds `queued` leaves under the lock).
// - `queued` -> `idle` or `queued` -> `delivering`: under the lock, only by the delivering thread,
//   having taken what was queued or parked (`endDelivering`, `resumeDelivering`).
// So under the lock the phase only ever moves from `delivering` to `idle` behind the holder's
// back, never from or to `queued`: `verifyInvariants(phase:)` may check that changes are queued or
// boxes parked exactly in the `queued` phase. `ObservedModelTests` drives every path from several
// threads and checks the invariants after every step.

public import Synchronization

/// Who delivers an `Observed` box's callbacks, in an `Atomic` of the box's storage (the protocol
/// at the top of `ObservedPhase.swift`).
///
/// - `idle`: nobody delivers.
/// - `delivering`: a thread delivers and nothing is queued for it.
/// - `queued`: a thread delivers, and changes are queued (`ObservedState.pending`) or boxes parked
///   (`ObservedState.retired`) for it.
@usableFromInline
enum DeliveryPhase: UInt8, AtomicRepresentable, Sendable {
  case idle
  case delivering
  case queued
}

extension ObservedState {
  // Under the lock: these are transitions of the state, which only exists inside the box's lock.
  // Static, not methods of the state: a method called on the state a lock body holds `inout`
  // copied the whole state (a retain and a release of each of its collections) in every write.

  /// The phase, read under the lock.
  @inlinable @inline(__always)
  static func currentPhase(_ phase: borrowing Atomic<DeliveryPhase>) -> DeliveryPhase {
    phase.load(ordering: .acquiring)
  }

  /// `idle` -> `delivering`: thread `me` becomes the delivering thread.
  @inlinable @inline(__always)
  mutating func enterDelivering(_ me: Int, phase: borrowing Atomic<DeliveryPhase>) {
    assert(phase.load(ordering: .relaxed) == .idle, "Observed: a second delivering thread")
    deliverer = me
    borrowed = false
    phase.store(.delivering, ordering: .relaxed)
  }

  /// `delivering` -> `queued`, so that the delivering thread leaves under the lock and takes what
  /// is queued or parked for it; the caller read `delivering`. `false` if it has just left (its
  /// compare-and-swap won: the phase is `idle`).
  @inlinable @inline(__always)
  static func queueBehindDeliverer(_ phase: borrowing Atomic<DeliveryPhase>) -> Bool {
    let (exchanged, found) = phase.compareExchange(
      expected: .delivering, desired: .queued, ordering: .acquiringAndReleasing)
    assert(exchanged || found == .idle, "Observed: the phase left delivering under the lock")
    return exchanged
  }

  /// `queued` -> `idle`: the delivering thread leaves, under the lock, nothing left for it.
  @inlinable
  static func endDelivering(_ phase: borrowing Atomic<DeliveryPhase>) {
    assert(phase.load(ordering: .relaxed) == .queued, "Observed: a leave under the lock, not queued")
    phase.store(.idle, ordering: .releasing)
  }

  /// `queued` -> `delivering`: the delivering thread took the last queued change, so that its next
  /// leave needs no lock.
  @inlinable
  static func resumeDelivering(_ phase: borrowing Atomic<DeliveryPhase>) {
    assert(phase.load(ordering: .relaxed) == .queued, "Observed: resumed, not queued")
    phase.store(.delivering, ordering: .relaxed)
  }
}

extension ObservedStorage {
  /// `delivering` -> `idle`, without the lock: the delivering thread `me` leaves when nothing was
  /// queued or parked for it meanwhile. `false` when the phase is `queued`: it must leave under
  /// the lock (``deliverQueued(_:)``). Only the delivering thread calls it, after its calls.
  @inlinable @inline(__always)
  func leaveWithoutLock() -> Bool {
    let (exchanged, found) = phase.compareExchange(
      expected: .delivering, desired: .idle, ordering: .acquiringAndReleasing)
    assert(exchanged || found == .queued, "Observed: a leave by a thread that is not delivering")
    return exchanged
  }
}
