public import Synchronization

// The registry's nodes: one per registered handler, each the token of its registration.

/// The life of a registered handler: it runs while `live`; `ended` is final.
///
/// A handler ends once, by whichever comes first: its token's `cancel()`, its run as a one-shot,
/// its owner's deallocation (found by a send or a sweep), or the source's deinit. The party whose
/// ``HandlerNode/end()`` moves the state from `live` to `ended` is the one that removes the
/// handler from the list.
@usableFromInline
enum HandlerState: UInt8, AtomicRepresentable, Sendable {
  /// Runs on every send.
  case live
  /// Never runs again.
  case ended
}

/// Where the cancels of a handler are: the first `cancel()` claims it (`running`) before it ends
/// the handler, and marks it `finished` once the handler is removed and its captures released; a
/// second caller waits for that (``CancelGate``). Apart from ``HandlerState``, which a send reads,
/// so that a send's check stays one load of a two-case state.
@usableFromInline
enum CancelPhase: UInt8, AtomicRepresentable, Sendable {
  /// No cancel has been made.
  case none
  /// A cancel is ending the handler.
  case running
  /// As `running`, and another caller waits for it (``CancelGate``).
  case awaited
  /// The first cancel has returned.
  case finished
}

/// A registered handler's node: its state, and the token of the registration, which it is, so
/// that a registration allocates one object.
///
/// The handler itself is not here but in the list's entries, next to the node (``HandlerEntry``):
/// what it captured is released when it leaves the list (and every running send's snapshot of the
/// entries), even while its token is kept.
///
/// `@unchecked Sendable`: `state` is atomic; `index` is read and written only under the lock of
/// the list that holds the node (``HandlerListState/verifyInvariants()`` checks it against the
/// entries); the rest is immutable.
@usableFromInline
class HandlerNode: HandlerSubscription, @unchecked Sendable {
  /// Whether the handler still runs.
  @usableFromInline final let state = Atomic<HandlerState>(.live)
  /// The handler runs at most once.
  @usableFromInline final let isOnce: Bool
  /// Delivered immediately and without an owner: a send calls the handler itself. Otherwise the
  /// node is an ``ExtendedNode``, which says where and whether the handler runs.
  @usableFromInline final let isPlain: Bool
  /// Where the cancels are. One byte, declared here, in the padding before ``storedIndex``: the
  /// node stays 40 bytes.
  @usableFromInline final let cancelPhase = Atomic<CancelPhase>(.none)
  /// The node's position in `HandlerListState.entries`, or -1 when it is in none. Guarded by the
  /// list's lock. 32 bits, so that the node fits in 40 bytes with the three fields above (a malloc
  /// size class of 48 where 48 bytes take 64): a list holds fewer than 2^31 handlers.
  /// `@exclusivity(unchecked)`: the lock makes every access exclusive, and the runtime check costs
  /// a thread-local access set per read (a tenth of an add + cancel).
  @usableFromInline @exclusivity(unchecked) final var storedIndex: Int32 = -1

  /// ``storedIndex`` as an `Int`. Guarded by the list's lock.
  @inlinable
  final var index: Int {
    get { Int(storedIndex) }
    set { storedIndex = Int32(newValue) }
  }

  @usableFromInline
  init(source: HandlerListSource, isOnce: Bool, isPlain: Bool) {
    self.isOnce = isOnce
    self.isPlain = isPlain
    super.init(source: source)
  }

  /// Ends the handler; `true` for the one caller that ended it, which then removes it.
  @inlinable
  final func end() -> Bool {
    state.compareExchange(expected: .live, desired: .ended, ordering: .acquiringAndReleasing).exchanged
  }

  /// Claims the first cancel: `true` for the one caller that then ends the handler (``end()``),
  /// removes it if that ended it, and calls ``finishCancel()``.
  @inlinable
  final func claimCancel() -> Bool {
    cancelPhase.compareExchange(expected: .none, desired: .running, ordering: .acquiringAndReleasing).exchanged
  }

  /// Finishes the cancel claimed by ``claimCancel()``, once the handler is removed and its captures
  /// released; wakes the callers waiting for it.
  @inlinable
  final func finishCancel() {
    if cancelPhase.exchange(.finished, ordering: .acquiringAndReleasing) == .awaited { CancelGate.wake() }
  }

  /// Returns once the first cancel, another caller's, has finished: at once unless it is still
  /// running, or when this thread runs a cancel's work (``CancelGate/isRunningEffects``), which
  /// may be that very cancel.
  @inlinable
  final func awaitCancel() {
    if cancelPhase.load(ordering: .acquiring) != .finished { awaitOtherCanceller() }
  }

  /// The slow path of ``awaitCancel()``.
  @usableFromInline @inline(never)
  final func awaitOtherCanceller() {
    guard !CancelGate.isRunningEffects else { return }
    var current = cancelPhase.load(ordering: .acquiring)
    while current == .running {
      let (exchanged, original) = cancelPhase.compareExchange(
        expected: .running, desired: .awaited, ordering: .acquiringAndReleasing)
      if exchanged { break }
      current = original
    }
    guard current != .finished else { return }
    CancelGate.wait { cancelPhase.load(ordering: .acquiring) != .finished }
  }

  /// Whether the handler has ended.
  @inlinable
  final var hasEnded: Bool {
    state.load(ordering: .acquiring) == .ended
  }

  /// Whether the handler will not run again: ended, or its owner is gone.
  @inlinable
  final var isEnded: Bool {
    hasEnded || isOwnerGone
  }

  /// Whether the handler was registered with an owner that has been deallocated; `false` for a
  /// node without one. Overridden by ``OwnedNode``.
  @usableFromInline
  var isOwnerGone: Bool { false }
}

/// A handler registered with an owner or with a non-immediate delivery: the uncommon case, kept
/// out of ``HandlerNode`` so that the common node stays small.
///
/// `@unchecked Sendable`: `ownerSlot` is guarded by the list's lock (checked by
/// ``HandlerListState/verifyInvariants()``); the rest is immutable.
@usableFromInline
class ExtendedNode: HandlerNode, @unchecked Sendable {
  /// Where the handler runs.
  @usableFromInline final let delivery: Delivery
  /// Whether the node is an ``OwnedNode``, listed in `HandlerListState.ownerBound`.
  @usableFromInline final let isOwnerBound: Bool
  /// The position in `HandlerListState.ownerBound`, or -1. Guarded by the list's lock, which makes
  /// every access exclusive (`@exclusivity(unchecked)`, as ``HandlerNode/storedIndex``).
  @usableFromInline @exclusivity(unchecked) final var ownerSlot = -1

  @usableFromInline
  init(source: HandlerListSource, isOnce: Bool, delivery: Delivery, isOwnerBound: Bool = false) {
    self.delivery = delivery
    self.isOwnerBound = isOwnerBound
    super.init(source: source, isOnce: isOnce, isPlain: false)
  }
}

/// A handler registered with an owner, which it holds weakly. Its entry's handler reads the owner
/// through this node (``RegistryHost/makeEntry(tag:once:owner:delivery:handler:)``), so that the
/// registration makes one weak reference.
///
/// `@unchecked Sendable`: `owner` is a weak reference, which the runtime reads and clears
/// atomically, and `Owner` is `Sendable`; the rest as ``ExtendedNode``.
@usableFromInline
final class OwnedNode<Owner: AnyObject & Sendable>: ExtendedNode, @unchecked Sendable {
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline weak let owner: Owner?

  @inlinable
  init(source: HandlerListSource, isOnce: Bool, owner: __shared Owner, delivery: Delivery) {
    self.owner = owner
    super.init(source: source, isOnce: isOnce, delivery: delivery, isOwnerBound: true)
  }

  @usableFromInline
  override var isOwnerGone: Bool { owner == nil }
}

/// One slot of `HandlerListState.entries`: a registered handler, its node and its tag; or a hole
/// left by a removal until compaction, whose node is ``HandlerListSource/holeNode`` (always ended,
/// so a send skips it like any ended handler) and whose handler does nothing.
@usableFromInline
struct HandlerEntry<Payload, Tag> {
  /// The node, the registration's token.
  @usableFromInline let node: HandlerNode
  /// Per-handler data of the source (the kinds of a control action; `Void` for events).
  @usableFromInline var tag: Tag
  /// The handler; for an ``OwnedNode`` it reads the owner and calls the user's closure with it.
  @usableFromInline let handler: HandlerCall<Payload>

  @inlinable
  init(node: HandlerNode, tag: Tag, handler: @escaping @Sendable (Payload) -> Void) {
    self.node = node
    self.tag = tag
    self.handler = HandlerCall(handler)
  }

  /// A hole in place of `removed`, keeping its tag (a tag is a plain value).
  @inlinable
  init(holeFor removed: Entry) {
    self.node = HandlerListSource.holeNode
    self.tag = removed.tag
    self.handler = HandlerCall { _ in }
  }

  @usableFromInline typealias Entry = HandlerEntry<Payload, Tag>

  /// Whether this is a hole.
  @inlinable
  var isHole: Bool { node === HandlerListSource.holeNode }
}

/// A handler closure in a struct: a function value that passes through a generic parameter (a
/// `withLock` result, an optional) is wrapped, even in specialised code, in a reabstraction thunk,
/// an allocation per send; a struct passes through as it is.
@usableFromInline
struct HandlerCall<Payload>: Sendable {
  @usableFromInline let call: @Sendable (Payload) -> Void

  @inlinable
  init(_ call: @escaping @Sendable (Payload) -> Void) {
    self.call = call
  }

  /// Calls the handler.
  @inlinable
  func callAsFunction(_ payload: Payload) {
    call(payload)
  }
}

/// The non-generic face of a ``HandlerList``: the source its nodes answer to.
///
/// `@unchecked Sendable`: no state of its own; ``HandlerList`` states its own.
@usableFromInline
package class HandlerListSource: SubscriptionSource, @unchecked Sendable {
  /// Removes ended nodes from the list (``HandlerList/remove(_:)``), as compiled for its payload
  /// and tag types: made by ``HandlerList``'s init in the client's own specialised code, so that a
  /// cancel, which reaches the list through the non-generic ``SubscriptionSource``, runs
  /// specialised code too, not the generic code over unknown types (several times slower).
  @usableFromInline let removeEnded: @Sendable (HandlerListSource, [HandlerNode]) -> Void
  /// The same for one node, with no array to allocate.
  @usableFromInline let removeOneEnded: @Sendable (HandlerListSource, HandlerNode) -> Void

  /// The node of every hole in every list's entries: ended from the start, in no list.
  @usableFromInline static let holeNode: HandlerNode = {
    let node = HandlerNode(
      source: HandlerListSource(removeEnded: { _, _ in }, removeOneEnded: { _, _ in }),
      isOnce: false,
      isPlain: true
    )
    _ = node.end()
    return node
  }()

  @usableFromInline init(
    removeEnded: @escaping @Sendable (HandlerListSource, [HandlerNode]) -> Void,
    removeOneEnded: @escaping @Sendable (HandlerListSource, HandlerNode) -> Void
  ) {
    self.removeEnded = removeEnded
    self.removeOneEnded = removeOneEnded
  }

  package final func cancel(_ subscription: HandlerSubscription) {
    guard let node = subscription as? HandlerNode else { failPrecondition("registry: a foreign token") }
    // Already ended: whoever ended it removes it (a one-shot's send, the owner sweep, `close()`, or
    // another cancel, which this one waits for).
    guard node.claimCancel() else { return node.awaitCancel() }
    if node.end() { CancelGate.runningEffects { removeOneEnded(self, node) } }
    node.finishCancel()
  }

  /// Cancels a run of this list's tokens (a bag's) under one lock; see ``HandlerList/remove(_:)``
  /// for the order.
  package final func cancel(_ subscriptions: ArraySlice<HandlerSubscription>) {
    var ended: [HandlerNode] = []
    ended.reserveCapacity(subscriptions.count)
    var others: [HandlerNode] = []
    for subscription in subscriptions {
      guard let node = subscription as? HandlerNode else { failPrecondition("registry: a foreign token") }
      if node.claimCancel() {
        // Not ended by this call: a one-shot's send, the owner sweep or `close()` removes it.
        if node.end() { ended.append(node) } else { node.finishCancel() }
      } else if node.cancelPhase.load(ordering: .acquiring) != .finished {
        others.append(node)  // another thread is cancelling it: waited for below
      }
    }
    if !ended.isEmpty {
      CancelGate.runningEffects { removeEnded(self, ended) }
      for node in ended { node.finishCancel() }
    }
    for node in others { node.awaitCancel() }
  }

  package final func isCancelled(_ subscription: HandlerSubscription) -> Bool {
    guard let node = subscription as? HandlerNode else { failPrecondition("registry: a foreign token") }
    return node.isEnded
  }
}
