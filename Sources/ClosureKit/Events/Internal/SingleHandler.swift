// The single-handler fast path of every registry host: a send to an `Event` (or to the handlers of
// a `NotificationCenter` name) with one handler, a write to an `Observed` box with one observer.
// (A `ControlActions` send picks its actions by kind, `send(_:matching:)`, and takes no box.)
//
// Why: one handler is the common case, and copying the entry array out of the lock for it costs
// a retain and a release of the array on top of the handler's own. So the first delivery that
// finds exactly one entry, live, plain (immediate, no owner) and not a one-shot, puts that entry's
// handler, node and tag in a `SingleHandler` that the registry keeps (`HandlerListState.single`),
// and later deliveries take the box instead of the entries:
// - an `Event` send copies it under the lock (one retain, as copying the handler was) and calls it
//   after the lock;
// - an `Observed` write borrows it, unretained (see `ObservedBorrow.swift`).
// Either way the call goes through `callIfLive`, which reads the node right before the call: after
// `cancel()` returns, no call starts, on this path as on every other (checked just before the
// call, as the loop checks each entry: a sender past the check makes its call, which Events.md
// counts as a call already running).
//
// Invariants (`HandlerListState.verifyInvariants()`):
// - a box exists only while the registry holds exactly one entry, and it is that entry's (same
//   node); every transition that changes the entries or their tags (append, removal, close,
//   `updateTags`: each bumps `version` through `HandlerListState.changed()`) drops it;
// - the box's closure and node are copies of its entry's, and a transition that drops it keeps
//   the entry (appended) or returns it for release after the lock (removed, closed): dropping a
//   box under the lock never releases the last reference to what a handler captured;
// - a host that borrows the box without a reference (an `Observed` box) sets
//   `keepsDroppedSingle`: a change then hands the box over (`droppedSingle`) instead of releasing
//   it, and the host takes it (`takeDroppedSingle()`) before its lock is released, so a borrowed
//   box is never freed under the borrower.

/// The one handler of a registry, in an immutable object that a delivery copies (or borrows)
/// instead of the entries (the top of `SingleHandler.swift`).
///
/// `@unchecked Sendable`: immutable; the closure is `@Sendable` and every host's tag is `Sendable`
/// (``RegistryHost``).
@usableFromInline
final class SingleHandler<Payload, Tag>: @unchecked Sendable {
  /// The handler (a copy of its entry's).
  @usableFromInline let call: @Sendable (Payload) -> Void
  /// The entry's node, read right before each call.
  @usableFromInline let node: HandlerNode
  /// The entry's tag when the box was made (a change of it drops the box).
  @usableFromInline let tag: Tag

  @inlinable
  init(_ entry: HandlerEntry<Payload, Tag>) {
    call = entry.handler.call
    node = entry.node
    tag = entry.tag
  }

  /// Calls the handler unless its registration has ended: a `cancel()` that has returned, an
  /// owner sweep or a close all end the node first.
  @inlinable @inline(__always)
  func callIfLive(_ payload: Payload) {
    RaceWindow.pass(.singleHandlerTaken)  // debug builds: a test's cancel, right here
    if !node.hasEnded { call(payload) }
  }
}

extension HandlerListState {
  /// The box of the one entry (``SingleHandler``), made on first use, when there is exactly one
  /// entry and it is live, plain and not a one-shot; `nil` otherwise. Only under the lock.
  @inlinable @inline(__always)
  mutating func singleHandler() -> SingleHandler<Payload, Tag>? {
    if let single { return single }
    guard entries.count == 1, singleRefusedAt != version else { return nil }
    return makeSingle()
  }

  /// Makes the box of the one entry, when it qualifies (``singleHandler()``). Out of line: the
  /// first delivery after a change takes it, and inlined it made the send too large to inline.
  @inlinable @inline(never)
  mutating func makeSingle() -> SingleHandler<Payload, Tag>? {
    let node = entries[0].node
    guard node.isPlain, !node.isOnce, !node.hasEnded else {
      // Not until the entries change: a node's kind never changes, and an ended node stays ended.
      singleRefusedAt = version
      return nil
    }
    let made = SingleHandler(entries[0])
    single = made
    return made
  }

  /// Records a change of the entries or of their tags: bumps ``version`` and drops the single
  /// handler's box (``SingleHandler``). Only under the lock.
  @inlinable @inline(__always)
  mutating func changed() {
    version &+= 1
    // Tested first: with no box (most changes), nothing to release or hand over.
    guard single != nil else { return }
    if keepsDroppedSingle {
      assert(droppedSingle == nil, "registry: a dropped box its host did not take")
      droppedSingle = single
    }
    single = nil
  }

  /// After a transition, for a host that set ``keepsDroppedSingle``: the box the transition
  /// dropped, if any, now the caller's to retire. Only under the lock.
  @inlinable @inline(__always)
  mutating func takeDroppedSingle() -> SingleHandler<Payload, Tag>? {
    guard droppedSingle != nil else { return nil }
    defer { droppedSingle = nil }
    return droppedSingle
  }

  /// Checks the box of the single handler against the entries (the invariants at the top of
  /// `SingleHandler.swift`).
  @inlinable
  func verifySingle() {
    // The host takes a dropped box after the transition (its own invariants check that it did).
    precondition(droppedSingle == nil || keepsDroppedSingle, "registry: a dropped box kept for no host")
    guard let single else { return }
    precondition(entries.count == 1, "registry: a single handler's box beside other entries")
    precondition(single.node === entries[0].node, "registry: the single handler's box is not the entry's")
    precondition(single.node.isPlain && !single.node.isOnce, "registry: a single handler's box for a special node")
  }
}
