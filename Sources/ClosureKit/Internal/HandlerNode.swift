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
  case live
  case ended
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
class HandlerNode: Subscription, @unchecked Sendable {
  /// Whether the handler still runs.
  @usableFromInline final let state = Atomic<HandlerState>(.live)
  /// The handler runs at most once.
  @usableFromInline final let isOnce: Bool
  /// Delivered immediately and without an owner: a send calls the handler itself. Otherwise the
  /// node is an ``ExtendedNode``, which says where and whether the handler runs.
  @usableFromInline final let isPlain: Bool
  /// The node's position in `HandlerListState.entries`, or -1 when it is in none. Guarded by the
  /// list's lock.
  @usableFromInline final var index = -1

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
  /// The position in `HandlerListState.ownerBound`, or -1. Guarded by the list's lock.
  @usableFromInline final var ownerSlot = -1

  @usableFromInline
  init(source: HandlerListSource, isOnce: Bool, delivery: Delivery, isOwnerBound: Bool = false) {
    self.delivery = delivery
    self.isOwnerBound = isOwnerBound
    super.init(source: source, isOnce: isOnce, isPlain: false)
  }
}

/// A handler registered with an owner, which it holds weakly. Its entry's handler reads the owner
/// through this node (``HandlerList/add(tag:once:owner:delivery:site:handler:)``), so that the
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

/// One slot of `HandlerListState.entries`: a registered handler, its node and its tag.
@usableFromInline
struct HandlerEntry<Payload, Tag> {
  /// The node, the registration's token.
  @usableFromInline let node: HandlerNode
  /// Per-handler data of the source (the kinds of a control action; `Void` for events).
  @usableFromInline var tag: Tag
  /// The handler; for an ``OwnedNode`` it reads the owner and calls the user's closure with it.
  @usableFromInline let handler: @Sendable (Payload) -> Void

  @inlinable
  init(node: HandlerNode, tag: Tag, handler: @escaping @Sendable (Payload) -> Void) {
    self.node = node
    self.tag = tag
    self.handler = handler
  }
}

/// The non-generic face of a ``HandlerList``: the source its nodes answer to.
///
/// `@unchecked Sendable`: no state of its own; ``HandlerList`` states its own.
@usableFromInline
class HandlerListSource: SubscriptionSource, @unchecked Sendable {
  @usableFromInline init() {}

  /// Overridden by ``HandlerList``, which owns the entries.
  package func cancel(_ subscription: Subscription) {
    failPrecondition("HandlerListSource.cancel(_:) is overridden by HandlerList")
  }

  /// Overridden by ``HandlerList``, which owns the entries.
  package func cancel(_ subscriptions: ArraySlice<Subscription>) {
    failPrecondition("HandlerListSource.cancel(_:) is overridden by HandlerList")
  }

  package final func isCancelled(_ subscription: Subscription) -> Bool {
    guard let node = subscription as? HandlerNode else { failPrecondition("registry: a foreign token") }
    return node.isEnded
  }
}
