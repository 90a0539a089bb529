public import Synchronization

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

/// The part of ``HandlerList`` that does not depend on the payload: registration bookkeeping,
/// cancellation, removal, the owner sweep and closing.
///
/// `@unchecked Sendable`: its only state is `state`, a ``Locked``; the class is not final only so
/// that ``HandlerList`` can add the generic send path.
@usableFromInline
class HandlerListCore: SubscriptionSource, @unchecked Sendable {
  @usableFromInline final let state = Locked(HandlerListState())

  @usableFromInline init() {}

  // MARK: Registration

  /// Inserts `node` with its `handler`, made by
  /// ``HandlerList/add(tag:once:delivery:site:handler:)``, and returns `node`, the token.
  @usableFromInline
  final func register(_ node: __owned HandlerNodeCore, handler: ErasedHandler, site: RegistrationSite) -> Subscription {
    let isDiagnosing = DiagnosticsSwitch.isEnabled
    let candidates = state.withLock { state -> [ExtendedNodeCore]? in
      if state.isClosed {
        _ = node.claimEnd()
        return nil
      }
      // A plain store, not an atomic add: no other thread has seen the node yet.
      let bits = node.word.load(ordering: .relaxed)
      node.word.store(bits | state.entries.count << NodeBits.indexShift, ordering: .relaxed)
      state.entries.append(HandlerEntry(node: node, handler: handler))
      state.liveCount += 1
      var newOwners = 0
      node.withOwnerBound { extended in
        extended.ownerBoundIndex = state.ownerBound.count
        state.ownerBound.append(Unmanaged.passUnretained(extended))
        newOwners = 1
      }
      if isDiagnosing { state.sites[ObjectIdentifier(node)] = site }
      return state.sweepCandidates(newOwners: newOwners)
    }
    if isDiagnosing, node.withOwnerBound(\.isOwnerGone) == true {
      // The caller still holds the owner, so a weak reference that reads `nil` means the owner is
      // being deinitialised: the handler can never run.
      DiagnosticsSwitch.reportDeadOwner(at: site)
    }
    if let candidates { sweep(candidates) }
    return node
  }

  /// Ends and removes every owner-bound handler whose owner is gone.
  ///
  /// - Complexity: O(k) in the number of live handlers registered with an owner.
  @usableFromInline
  final func sweepOrphans() {
    let candidates = state.withLock { state -> [ExtendedNodeCore] in
      state.registrationsSinceSweep = 0
      return state.retainedOwnerBound()
    }
    sweep(candidates)
  }

  /// Ends and removes the handlers of `candidates`, a copy of the owner-bound ones, whose owner is
  /// gone.
  ///
  /// The owners are checked outside the lock: reading a weak reference makes a strong copy, and if
  /// another thread dropped the owner's last reference meanwhile, releasing that copy would run the
  /// owner's deinit (which may cancel its own token, taking this lock) under the lock.
  @usableFromInline
  final func sweep(_ candidates: [ExtendedNodeCore]) {
    let orphans = candidates.filter(\.isOrphaned)
    guard !orphans.isEmpty else { return }
    let garbage = state.withLock { state in
      orphans.map { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  // MARK: Removal and queries

  /// Removes ended nodes; releases them and their handlers after the lock is dropped.
  @usableFromInline
  final func remove(_ nodes: [HandlerNodeCore]) {
    let garbage = state.withLock { state in nodes.map { state.remove($0) } }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Ends every handler: called by the source's deinit.
  @usableFromInline
  final func close() {
    let garbage = state.withLock { state -> ContiguousArray<HandlerEntry> in
      state.isClosed = true
      let entries = state.entries
      forEachEntry(of: entries) { node, _ in _ = node.claimEnd() }
      state.entries = []
      state.liveCount = 0
      for node in state.ownerBound { node._withUnsafeGuaranteedRef { $0.ownerBoundIndex = -1 } }
      state.ownerBound = []
      state.sites = [:]
      return entries
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  package final func cancel(_ subscription: Subscription) {
    let node = unsafeDowncast(subscription, to: HandlerNodeCore.self)
    // Already ended: whoever ended it removes it (a one-shot's send, the owner sweep, `close()`).
    guard node.claimEnd() else { return }
    let garbage = state.withLock { $0.remove(node) }
    withExtendedLifetime(garbage) {}  // released after the lock
  }

  /// Cancels a run of this list's tokens (a bag's) under one lock.
  package final func cancel(_ subscriptions: ArraySlice<Subscription>) {
    // The tokens are read in place, unretained: the caller's array keeps each alive, and a copy of
    // each would cost a retain and a release, twice per token.
    subscriptions.withUnsafeBufferPointer { tokens in
      guard let first = tokens.baseAddress else { return }
      func node(at index: Int) -> Unmanaged<HandlerNodeCore> {
        UnsafeRawPointer(first + index).load(as: Unmanaged<HandlerNodeCore>.self)
      }
      // Which tokens this call ended, in a temporary buffer (on the stack for a bag-sized run).
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: tokens.count) { endedHere in
        guard let endedHere = endedHere.baseAddress else { return }
        // Ends each node first; a node that another party ended (a one-shot's send, the owner
        // sweep, `close()`) is removed here or by that party, whichever comes first: `remove(_:)`
        // finds a node only in its own slot.
        var claimed = 0
        for index in 0..<tokens.count {
          let ended = node(at: index)._withUnsafeGuaranteedRef { $0.claimEnd() }
          (endedHere + index).initialize(to: ended)
          if ended { claimed += 1 }
        }
        guard claimed > 0 else { return }
        // The removed entries wait in a temporary buffer too, and are released after the lock, in
        // the tokens' order, one by one, in code compiled for the entry type. They are removed
        // newest first: a bag's tokens are usually the newest entries, each then taken off the end
        // instead of leaving a hole (nothing observes the order under the lock).
        withUnsafeTemporaryAllocation(of: HandlerEntry?.self, capacity: tokens.count) { garbage in
          guard let base = garbage.baseAddress else { return }
          var misplaced = false
          state.withLock { state in
            for index in (0..<tokens.count).reversed() {
              let removed = node(at: index)._withUnsafeGuaranteedRef { state.remove($0) }
              // A token this call ended whose entry is already gone is a token stored twice: its
              // entry went to its later position.
              if removed == nil, endedHere[index] { misplaced = true }
              (base + index).initialize(to: removed)
            }
          }
          if misplaced { Self.moveEntriesToFirstPositions(base, of: node, count: tokens.count, endedHere: endedHere) }
          for index in 0..<tokens.count { _ = (base + index).move() }
        }
      }
    }
  }

  /// For a run that holds a token twice, moves each removed entry from the token's later position
  /// to the first, the one this call ended, so that the entries are released as a cancel of each
  /// token in turn would release them. O(n) per token stored twice.
  @usableFromInline
  static func moveEntriesToFirstPositions(
    _ garbage: UnsafeMutablePointer<HandlerEntry?>,
    of node: (Int) -> Unmanaged<HandlerNodeCore>,
    count: Int,
    endedHere: UnsafeMutablePointer<Bool>
  ) {
    for target in 0..<count where endedHere[target] && garbage[target] == nil {
      let identity = node(target).toOpaque()
      for later in (target + 1)..<count where node(later).toOpaque() == identity && garbage[later] != nil {
        swap(&garbage[target], &garbage[later])
        break
      }
    }
  }

  package final func isCancelled(_ subscription: Subscription) -> Bool {
    unsafeDowncast(subscription, to: HandlerNodeCore.self).isEnded
  }

  package final func subscriptionWillDeinit(_ subscription: Subscription) {
    // Never called: a node is in state mode.
  }

  /// The number of live handlers.
  final func count() -> Int {
    sweepOrphans()
    return state.withLock { $0.liveCount }
  }

  /// Where each live handler was registered, in registration order; `nil` for a handler
  /// registered while diagnostics were off.
  final func liveSites() -> [RegistrationSite?] {
    sweepOrphans()
    return state.withLock { state in
      state.entries.compactMap(\.node).map { state.sites[ObjectIdentifier($0)] }
    }
  }
}

/// The thread-safe, ordered handler list behind ``Event`` and ``ControlActions``.
///
/// A send copies the entry array under the lock (one reference-count increment, no element copy),
/// then calls the handlers outside it. Removal leaves a hole that a later compaction closes, so add
/// and cancel are amortised O(1). Tokens hold the list strongly (it is small); the user-facing
/// source calls ``HandlerListCore/close()`` from its deinit, which ends every handler.
///
/// Only what needs the payload or tag type is here, and it is `@inlinable`, so that a client
/// compiles it for its own types; the rest is in the non-generic ``HandlerListCore``.
@usableFromInline
final class HandlerList<Payload: Sendable, Tag: Sendable>: HandlerListCore, @unchecked Sendable {
  // @unchecked Sendable: as HandlerListCore; no state of its own.

  @inlinable override init() {}

  // MARK: Registration

  /// Registers a handler without an owner and returns its token.
  @inlinable
  func add(
    tag: Tag,
    once: Bool,
    delivery: __owned Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Payload) -> Void
  ) -> Subscription {
    let flags = once ? NodeBits.once : 0
    // Each node goes to `register` as it is made, a temporary handed over owned: kept in a local,
    // it costs the caller a retain and a release around the call.
    if delivery.isImmediate {
      return register(
        TaggedNode(list: self, tag: tag, flags: flags),
        handler: ErasableHandler(handler).erased,
        site: site
      )
    }
    // `delivery`'s last use, so it is moved without `consume`; spelled `consume delivery`, the
    // Swift 6.3 compiler crashes type-checking this against iPhoneOS16.5.sdk's standard library
    // (Scripts/typecheck-apple-sdk.sh), which lacks the `Copyable` protocol the check looks up.
    return register(
      DeliveryNode<Payload, Tag>(list: self, tag: tag, flags: flags, delivery: delivery),
      handler: ErasableHandler(handler).erased,
      site: site
    )
  }

  /// Registers a handler bound to `owner` and returns its token.
  @inlinable
  func add<Owner: AnyObject & Sendable>(
    tag: Tag,
    once: Bool,
    owner: Owner,
    delivery: __owned Delivery,
    site: RegistrationSite,
    handler: @escaping @Sendable (Owner, Payload) -> Void
  ) -> Subscription {
    let flags = once ? NodeBits.once : 0
    return register(
      OwnedNode<Owner, Payload, Tag>(list: self, tag: tag, flags: flags, owner: owner, delivery: delivery),
      handler: ErasableOwnedHandler(handler).erased,
      site: site
    )
  }

  // MARK: Sending

  /// Calls every live handler, in registration order.
  ///
  /// With one live handler, immediate and not a one-shot (the common case), the send copies that
  /// handler under the lock instead of the entry array: a call from the array retains and releases
  /// the handler's context anyway (a closure in an array cannot be called in place), so the fast
  /// path saves the array's retain and release, a third of a send to one handler.
  @inlinable
  func send(_ payload: Payload) {
    var snapshot = ContiguousArray<HandlerEntry>()
    let single = state.withLock { state -> ErasableHandler<Payload>? in
      if state.entries.count == 1, let single = Self.singlePlainHandler(in: state.entries) {
        return single
      }
      snapshot = state.entries
      return nil
    }
    switch consume single {
    case .some(let handler):
      handler(payload)
    case .none:
      deliver(payload, to: snapshot)
    }
  }

  /// The handler of the one entry of `entries`, if it is live, immediate and not a one-shot.
  @inlinable
  static func singlePlainHandler(in entries: ContiguousArray<HandlerEntry>) -> ErasableHandler<Payload>? {
    entries.withUnsafeBufferPointer { entries -> ErasableHandler<Payload>? in
      let entry = entries.baseAddress!
      guard let node = HandlerEntry.node(at: entry) else { return nil }
      let bits = node._withUnsafeGuaranteedRef { $0.word.load(ordering: .acquiring) }
      guard bits & (NodeBits.ended | NodeBits.once | NodeBits.extended) == 0 else { return nil }
      return HandlerEntry.handler(at: entry).withMemoryRebound(to: ErasableHandler<Payload>.self, capacity: 1) {
        $0.pointee
      }
    }
  }

  /// Calls every live handler whose tag matches, in registration order.
  @inlinable
  func send(_ payload: Payload, matching match: (Tag) -> Bool) {
    let snapshot = state.withLock { state in
      var matching = ContiguousArray<HandlerEntry>()
      forEachEntry(of: state.entries) { node, handler in
        if match(Self.tag(of: node)) { matching.append(HandlerEntry(node: node, handler: handler.pointee)) }
      }
      return matching
    }
    deliver(payload, to: snapshot)
  }

  /// The tag of `node`, one of this list's nodes.
  @inlinable
  static func tag(of node: HandlerNodeCore) -> Tag {
    if node.word.load(ordering: .relaxed) & NodeBits.extended != 0 {
      return unsafeDowncast(node, to: ExtendedNode<Payload, Tag>.self).tag
    }
    return unsafeDowncast(node, to: TaggedNode<Tag>.self).tag
  }

  /// Calls the live handlers of `snapshot`, then removes those that ended on the way.
  ///
  /// Nodes and handlers are read in place: the snapshot keeps every one alive for the whole loop,
  /// and a strong copy costs a retain and a release per handler (half the time of a send to one
  /// handler).
  @inlinable
  func deliver(_ payload: Payload, to snapshot: ContiguousArray<HandlerEntry>) {
    var ended: [HandlerNodeCore] = []
    forEachEntry(of: snapshot) { node, handler in
      let bits = node.word.load(ordering: .acquiring)
      if bits & NodeBits.ended != 0 { return }
      if bits & NodeBits.extended != 0 {
        deliver(
          payload,
          to: unsafeDowncast(node, to: ExtendedNode<Payload, Tag>.self),
          handler: handler,
          ended: &ended
        )
        return
      }
      if bits & NodeBits.once != 0 {
        guard node.claimEnd() else { return }
        ended.append(node)
      }
      ErasableHandler<Payload>.call(handler, with: payload)
    }
    if !ended.isEmpty {
      remove(ended)
    }
  }

  /// The uncommon path of a send: owner checks and asynchronous delivery.
  @inlinable @inline(never)
  func deliver(
    _ payload: Payload,
    to node: ExtendedNode<Payload, Tag>,
    handler: UnsafePointer<ErasedHandler>,
    ended: inout [HandlerNodeCore]
  ) {
    if node.isOrphaned {
      if node.claimEnd() { ended.append(node) }
      return
    }
    let once = node.word.load(ordering: .relaxed) & NodeBits.once != 0
    if node.delivery.isImmediate {
      if once {
        guard node.claimEnd() else { return }
        ended.append(node)
      }
      if !node.invoke(handler, payload), node.claimEnd() { ended.append(node) }
      return
    }
    // The job keeps its own reference to the handler: a delivery queued before a cancel keeps the
    // captures until it is dropped, unrun.
    let queued = handler.pointee
    node.delivery.execute { [self] in
      if node.isOrphaned {
        if node.claimEnd() { remove([node]) }
        return
      }
      if once {
        guard node.claimEnd() else { return }
        remove([node])
      } else if node.word.load(ordering: .acquiring) & NodeBits.ended != 0 {
        return
      }
      let isCalled = withUnsafePointer(to: queued) { node.invoke($0, payload) }
      if !isCalled, node.claimEnd() { remove([node]) }
    }
  }

  // MARK: Queries and tags

  /// The number of live handlers whose tag matches.
  @inlinable
  func count(matching match: (Tag) -> Bool) -> Int {
    sweepOrphans()
    return state.withLock { state in
      var count = 0
      forEachEntry(of: state.entries) { node, _ in
        if match(Self.tag(of: node)) { count += 1 }
      }
      return count
    }
  }

  /// Lets `body` change each live handler's tag; removes those for which it returns `false`.
  @inlinable
  func updateTags(_ body: (inout Tag) -> Bool) {
    let garbage = state.withLock { state -> (HandlerEntry?, [HandlerEntry?]) in
      // Collected first, removed after the loop (a removal may compact the entries); the first in
      // a variable of its own, so that the common removal of one handler allocates nothing.
      var first: Unmanaged<HandlerNodeCore>?
      var more: [HandlerNodeCore] = []
      forEachEntry(of: state.entries) { node, _ in
        let keep: Bool
        if node.word.load(ordering: .relaxed) & NodeBits.extended != 0 {
          keep = body(&unsafeDowncast(node, to: ExtendedNode<Payload, Tag>.self).tag)
        } else {
          keep = body(&unsafeDowncast(node, to: TaggedNode<Tag>.self).tag)
        }
        if keep { return }
        if first == nil { first = Unmanaged.passUnretained(node) } else { more.append(node) }
      }
      guard let first else { return (nil, []) }
      // `first` stays alive: the entries hold it until `remove` hands their reference over.
      let removedFirst = first._withUnsafeGuaranteedRef { node in
        _ = node.claimEnd()
        return state.remove(node)
      }
      return (
        removedFirst,
        more.map { node in
          _ = node.claimEnd()
          return state.remove(node)
        }
      )
    }
    withExtendedLifetime(garbage) {}  // released after the lock
  }
}
