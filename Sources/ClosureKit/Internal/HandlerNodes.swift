public import Synchronization

// The registry's nodes and erased handlers (split from HandlerList.swift by role).

/// The layout of a node's state word (``Subscription/word`` in state mode). Not nested in a node
/// class, so that reading a constant needs no metadata on the send path.
@usableFromInline
enum NodeBits {
  /// Always set: the word holds these bits, not a reference (see ``Subscription/word``).
  @inlinable static var isState: Int { 1 }
  /// Set once the handler has ended: cancelled, run as a one-shot, owner gone, or source gone.
  @inlinable static var ended: Int { 2 }
  /// The handler runs at most once.
  @inlinable static var once: Int { 4 }
  /// The node is an ``ExtendedNodeCore`` (owner or non-immediate delivery).
  @inlinable static var extended: Int { 8 }
  /// The node is an ``OwnedNode``: registered with an owner.
  @inlinable static var ownerBound: Int { 16 }
  /// The node's index in `HandlerListState.entries` is stored above the flag bits.
  @inlinable static var indexShift: Int { 5 }
}

/// A handler closure with its type erased, as the list's entries keep it: the bits of an
/// ``ErasableHandler`` or an ``ErasableOwnedHandler``. Any closure has the same layout (a function
/// and a reference-counted context), so copying and destroying one as this type retains and
/// releases the context correctly; it is only ever called as the type it was made from.
///
/// A struct, not a bare function type: a function value that passes through a generic parameter
/// (`unsafeBitCast`'s result, a pointer's `pointee`) is reabstracted, in unspecialised code, by a
/// thunk around it, and the bits would then be the thunk's.
@usableFromInline
struct ErasedHandler: Sendable {
  @usableFromInline let function: @Sendable () -> Void

  @inlinable
  init(_ function: @escaping @Sendable () -> Void) {
    self.function = function
  }
}

/// A handler at the abstraction of a generic stored property, where the payload is passed
/// indirectly whatever its type: its bits mean the same in code specialised for the payload and in
/// unspecialised code, so a handler erased by the one may be called by the other.
@usableFromInline
struct ErasableHandler<Payload> {
  @usableFromInline let call: @Sendable (Payload) -> Void

  @inlinable
  init(_ call: @escaping @Sendable (Payload) -> Void) {
    self.call = call
  }

  /// The handler as the entries keep it.
  @inlinable
  var erased: ErasedHandler {
    unsafeBitCast(self, to: ErasedHandler.self)
  }

  /// Calls the handler.
  @inlinable
  func callAsFunction(_ payload: Payload) {
    call(payload)
  }

  /// Calls the handler that `erased` holds, which was made from a `ErasableHandler<Payload>`. The
  /// call copies the closure out of memory, a retain and a release of its context (measured:
  /// neither a borrowing parameter nor a non-copyable view avoids it); a closure that is a
  /// constant of a class is called in place (see ``ObservedHandler``).
  @inlinable
  static func call(_ erased: UnsafePointer<ErasedHandler>, with payload: Payload) {
    erased.withMemoryRebound(to: ErasableHandler<Payload>.self, capacity: 1) { $0.pointee.call(payload) }
  }
}

/// A handler that takes an owner, like ``ErasableHandler``.
@usableFromInline
struct ErasableOwnedHandler<Owner, Payload> {
  @usableFromInline let call: @Sendable (Owner, Payload) -> Void

  @inlinable
  init(_ call: @escaping @Sendable (Owner, Payload) -> Void) {
    self.call = call
  }

  /// The handler as the entries keep it.
  @inlinable
  var erased: ErasedHandler {
    unsafeBitCast(self, to: ErasedHandler.self)
  }
}

/// One slot of `HandlerListState.entries`: a registered handler and its node, or a hole (both
/// empty) left by a removal until compaction.
@usableFromInline
struct HandlerEntry {
  /// The node; `nil` in a hole.
  @usableFromInline var node: HandlerNodeCore?
  /// The handler; a no-op in a hole.
  @usableFromInline var handler: ErasedHandler

  @inlinable
  init(node: HandlerNodeCore?, handler: ErasedHandler) {
    self.node = node
    self.handler = handler
  }

  /// A removed handler's slot.
  @usableFromInline static var hole: HandlerEntry { HandlerEntry(node: nil, handler: ErasedHandler {}) }

  /// The node of the entry at `entry`, unretained: valid while the entries that hold it live.
  @inlinable
  static func node(at entry: UnsafePointer<HandlerEntry>) -> Unmanaged<HandlerNodeCore>? {
    UnsafeRawPointer(entry).load(as: Unmanaged<HandlerNodeCore>?.self)
  }

  /// The handler of the entry at `entry`, in place.
  ///
  /// Swift lays out a struct's stored properties in declaration order (the ABI's type layout), so
  /// the handler follows the node (a constant offset, where `MemoryLayout.offset(of:)` builds a key
  /// path in an unoptimised build).
  @inlinable
  static func handler(at entry: UnsafePointer<HandlerEntry>) -> UnsafePointer<ErasedHandler> {
    (UnsafeRawPointer(entry) + MemoryLayout<HandlerNodeCore?>.stride).assumingMemoryBound(to: ErasedHandler.self)
  }
}

/// A registered handler's node: its state bits, and the token of the registration, which it is
/// (a ``Subscription`` in state mode), so that a registration allocates one object. Not generic, so
/// that registration bookkeeping, cancellation and removal are compiled once, concretely, and never
/// look up generic metadata (they did, and it was half their cost).
///
/// The handler itself is not here but in the list's entries, next to the node: so that what it
/// captured is released when it leaves the list (and every running send's snapshot of the entries),
/// even while its token is kept.
///
/// `@unchecked Sendable`: its only state is the atomic word.
@usableFromInline
class HandlerNodeCore: Subscription, @unchecked Sendable {
  @usableFromInline
  init(list: HandlerListCore, flags: Int) {
    super.init(source: list, word: flags | NodeBits.isState)
  }

  /// This node as an ``OwnedNode``'s core, if it is one. Tested by its bit and cast
  /// unconditionally, not with an optional cast, which binds a retained copy.
  @inlinable
  final func withOwnerBound<Result>(_ body: (ExtendedNodeCore) -> Result) -> Result? {
    guard word.load(ordering: .relaxed) & NodeBits.ownerBound != 0 else { return nil }
    return body(unsafeDowncast(self, to: ExtendedNodeCore.self))
  }

  /// Whether the handler will not run again: ended, or its owner is gone.
  @inlinable
  final var isEnded: Bool {
    if word.load(ordering: .acquiring) & NodeBits.ended != 0 { return true }
    return withOwnerBound(\.isOwnerGone) ?? false
  }

  /// The node's index in the list's entries; read and written under the list's lock.
  @inlinable
  final var index: Int {
    word.load(ordering: .relaxed) >> NodeBits.indexShift
  }
}

/// A handler registered with immediate delivery and no owner: the common node, with the source's
/// per-handler data (the kinds of a control action; `Void` for events).
///
/// `@unchecked Sendable`: `tag` is read and written only under the list's lock.
@usableFromInline
final class TaggedNode<Tag: Sendable>: HandlerNodeCore, @unchecked Sendable {
  /// Per-handler data of the source.
  @usableFromInline @exclusivity(unchecked) var tag: Tag

  @inlinable
  init(list: HandlerListCore, tag: Tag, flags: Int) {
    self.tag = tag
    super.init(list: list, flags: flags)
  }
}

/// The non-generic part of a handler registered with an owner or with a non-immediate delivery:
/// the uncommon case, kept out of the common node so that it stays small.
///
/// The owner's weak reference is in ``OwnedNode`` only: a node with a delivery and no owner
/// makes and destroys none (a call into the runtime each).
///
/// `@unchecked Sendable`: `ownerBoundIndex` is guarded by the list's lock; the rest is immutable.
@usableFromInline
class ExtendedNodeCore: HandlerNodeCore, @unchecked Sendable {
  /// Where the handler runs.
  @usableFromInline final let delivery: Delivery
  /// The position in `HandlerListState.ownerBound`, or -1; guarded by the list's lock.
  @usableFromInline @exclusivity(unchecked) final var ownerBoundIndex = -1

  @usableFromInline
  init(list: HandlerListCore, flags: Int, delivery: Delivery) {
    self.delivery = delivery
    super.init(list: list, flags: flags | NodeBits.extended)
  }

  /// Whether the handler was registered with an owner.
  @inlinable
  final var isOwnerBound: Bool {
    word.load(ordering: .relaxed) & NodeBits.ownerBound != 0
  }

  /// Whether the handler's owner has been deallocated.
  @inlinable
  final var isOrphaned: Bool {
    isOwnerBound && isOwnerGone
  }

  /// Whether the owner has been deallocated; `false` for a node without one.
  @usableFromInline
  var isOwnerGone: Bool { false }
}

/// A handler registered with an owner or a non-immediate delivery: the tag, and the call, which
/// the two subclasses make differently.
///
/// `@unchecked Sendable`: `tag` is read and written only under the list's lock.
@usableFromInline
class ExtendedNode<Payload: Sendable, Tag: Sendable>: ExtendedNodeCore, @unchecked Sendable {
  /// Per-handler data of the source; `Void` for events.
  @usableFromInline @exclusivity(unchecked) final var tag: Tag

  @inlinable
  init(list: HandlerListCore, tag: Tag, flags: Int, delivery: Delivery) {
    self.tag = tag
    super.init(list: list, flags: flags, delivery: delivery)
  }

  /// Calls `handler`, this node's handler from the entries, with `payload`; returns `false`,
  /// having called nothing, if its owner is gone.
  @usableFromInline
  func invoke(_ handler: UnsafePointer<ErasedHandler>, _ payload: Payload) -> Bool {
    failPrecondition("ExtendedNode.invoke(_:_:) is overridden by every subclass")
  }
}

/// A handler without an owner, with a non-immediate delivery; its handler is a ``ErasableHandler``.
///
/// `@unchecked Sendable`: as ``ExtendedNode``.
@usableFromInline
final class DeliveryNode<Payload: Sendable, Tag: Sendable>: ExtendedNode<Payload, Tag>, @unchecked Sendable {

  @usableFromInline
  override func invoke(_ handler: UnsafePointer<ErasedHandler>, _ payload: Payload) -> Bool {
    ErasableHandler<Payload>.call(handler, with: payload)
    return true
  }
}

/// A handler registered with an owner; its handler is an ``ErasableOwnedHandler``, the user's closure
/// as it is, handed the owner from the node's own weak reference, so that the registration needs
/// no wrapping closure (with a weak capture of its own: an allocation and two atomic operations
/// more).
///
/// `@unchecked Sendable`: `owner` is a weak reference, which the runtime reads and clears
/// atomically; the rest as ``ExtendedNode``.
@usableFromInline
final class OwnedNode<Owner: AnyObject & Sendable, Payload: Sendable, Tag: Sendable>:
  ExtendedNode<Payload, Tag>, @unchecked Sendable
{
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline weak let owner: Owner?

  @inlinable
  init(list: HandlerListCore, tag: Tag, flags: Int, owner: __shared Owner, delivery: Delivery) {
    self.owner = owner
    super.init(list: list, tag: tag, flags: flags | NodeBits.ownerBound, delivery: delivery)
  }

  @usableFromInline
  override var isOwnerGone: Bool { owner == nil }

  @usableFromInline
  override func invoke(_ handler: UnsafePointer<ErasedHandler>, _ payload: Payload) -> Bool {
    // A strong reference for the call: the owner cannot go while its handler runs.
    guard let owner else { return false }
    handler.withMemoryRebound(to: ErasableOwnedHandler<Owner, Payload>.self, capacity: 1) {
      $0.pointee.call(owner, payload)
    }
    return true
  }
}
