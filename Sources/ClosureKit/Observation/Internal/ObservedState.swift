// The state of an `Observed` box under its lock: a pure value type whose transitions return what
// the calling thread does after the lock (deliver a change, release an old value, nothing).

/// One change for the observers of a box: a write, or a registration's initial callback.
@usableFromInline
enum ObservedChange<Value: Sendable> {
  @usableFromInline typealias Entry = HandlerEntry<Change<Value>, ObservationOptions>

  /// A write, for the observers registered before it (`observers`, a snapshot of the registry at
  /// `version`): their prior callbacks, then their post callbacks.
  case write(old: Value, new: Value, observers: ContiguousArray<Entry>, version: Int)
  /// The initial callback of the registration `entry`.
  case initial(Value, Entry)
}

/// What a thread does after a transition of ``ObservedState``, with the lock released.
@usableFromInline
enum ObservedAction<Value: Sendable> {
  /// Nobody to tell: release the replaced value (its deinit may run any code).
  case release(Value)
  /// Deliver `change` now. `showsPriorOf` is the write whose old value reads show until its prior
  /// callbacks have run (``ObservedState/endPrior(of:)``); `leaves`: this thread became the
  /// delivering thread, and delivers what was queued meanwhile before it leaves
  /// (``ObservedState/leave(_:)``).
  case deliver(ObservedChange<Value>, showsPriorOf: Int?, leaves: Bool)
  /// Queued for the delivering thread, another one or this one further up its stack.
  case queued
}

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
/// Invariants (``verifyInvariants()``, asserted after every transition while the box has few
/// observers):
/// - a change is queued only while a thread delivers: `pendingHead < pending.count` implies
///   `deliverer != nil`, and every queued slot from `pendingHead` on holds a change;
/// - `modifier != nil` exactly while `modifyDepth > 0`;
/// - `shownValue != nil` only while `shownBy == sequence` (no later write replaced it);
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
  /// The number of writes so far.
  @usableFromInline var sequence = 0
  /// Changes waiting for the delivering thread, in write order, from ``pendingHead`` on.
  @usableFromInline var pending: ContiguousArray<ObservedChange<Value>?> = []
  /// The index of the next change to deliver in ``pending``.
  @usableFromInline var pendingHead = 0
  /// The token of the delivering thread (``currentThreadID``), or `nil`.
  @usableFromInline var deliverer: Int?
  /// The token of the thread running a `modify` body, or `nil`.
  @usableFromInline var modifier: Int?
  /// How many `modify` bodies the ``modifier`` runs (nested ones included).
  @usableFromInline var modifyDepth = 0
  /// How many observers ever asked for ``ObservationOptions/prior``: while none did, a write
  /// looks for none.
  @usableFromInline var priorRegistrations = 0

  @inlinable
  init(value: Value) {
    self.value = value
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
  @inlinable
  mutating func write(_ new: Value, by me: Int, endingModify: Bool) -> ObservedAction<Value> {
    assert(!isGated(for: me), "Observed: a write while another thread modifies")
    if endingModify { endModify() }
    let old = value
    value = new
    shownValue = nil
    sequence &+= 1
    guard registry.liveCount > 0 else { return .release(old) }
    let change = ObservedChange.write(old: old, new: new, observers: registry.snapshot(), version: registry.version)
    let action = schedule(change, by: me)
    guard case .deliver = action, hasPriorObserver else { return action }
    // Delivered at once: reads show the old value until the prior callbacks have run.
    shownValue = old
    shownBy = sequence
    return .deliver(change, showsPriorOf: sequence, leaves: action.leaves)
  }

  /// Registers `entry` (``HandlerListState/register(_:extended:site:)``); with `initial`, also
  /// schedules its initial callback, in its place among the writes.
  @inlinable
  mutating func register(
    _ entry: __owned Entry,
    extended: ExtendedNode?,
    initial: Bool,
    by me: Int
  ) -> (RegistrationOutcome, ObservedAction<Value>) {
    let isPrior = entry.tag.contains(.prior)
    let outcome = registry.register(entry, extended: extended, site: nil)
    guard outcome.isAppended else { return (outcome, .queued) }
    if isPrior { priorRegistrations += 1 }
    guard initial else { return (outcome, .queued) }
    return (outcome, schedule(.initial(value, entry), by: me))
  }

  /// Delivers `change` on this thread if it may (nobody delivers: it becomes the delivering
  /// thread; or it is the delivering thread and nothing is queued), else queues it.
  @inlinable
  mutating func schedule(_ change: __owned ObservedChange<Value>, by me: Int) -> ObservedAction<Value> {
    defer { assert(registry.entries.count > HandlerListState<Change<Value>, ObservationOptions>.checkedSize || verifyInvariants()) }
    guard let deliverer else {
      self.deliverer = me
      return .deliver(change, showsPriorOf: nil, leaves: true)
    }
    if deliverer == me && !hasPending { return .deliver(change, showsPriorOf: nil, leaves: false) }
    pending.append(change)
    return .queued
  }

  /// On the delivering thread, after a change: the next queued change to deliver, or `nil`, having
  /// stopped being the delivering thread (in the same critical section, so no change is left
  /// behind).
  ///
  /// Queued writes are taken together with the writes queued right after them for the same
  /// observers, as one change, from the first one's old value to the last one's new value: so a
  /// handler is not handed values that later writes have already replaced (two boxes bound both
  /// ways by handlers that copy `newValue` chased each other forever with such values).
  @inlinable
  mutating func leave(_ me: Int) -> ObservedChange<Value>? {
    precondition(deliverer == me, "Observed: leave by a thread that is not delivering")
    guard hasPending, let first = pending[pendingHead] else {
      deliverer = nil
      return nil
    }
    pending[pendingHead] = nil
    pendingHead += 1
    var taken = first
    if case .write(let old, _, let observers, let version) = first {
      while hasPending, case .write(_, let later, _, let laterVersion)? = pending[pendingHead],
        laterVersion == version
      {
        taken = .write(old: old, new: later, observers: observers, version: version)
        pending[pendingHead] = nil
        pendingHead += 1
      }
    }
    if !hasPending {
      pending.removeAll(keepingCapacity: pending.count <= 64)
      pendingHead = 0
    }
    assert(verifyInvariants())
    return taken
  }

  /// After the prior callbacks of write `sequence`, delivered at once: reads show the value again
  /// (unless a later write already did).
  @inlinable
  mutating func endPrior(of sequence: Int) {
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

  /// Whether an observer may want prior callbacks.
  @inlinable
  var hasPriorObserver: Bool {
    priorRegistrations > 0 && registry.entries.contains { !$0.isHole && $0.tag.contains(.prior) }
  }

  // MARK: Invariants

  /// Checks the invariants listed on the type; traps with a message on the first broken one.
  /// Returns `true`, so that it can stand in an `assert`.
  @inlinable
  func verifyInvariants() -> Bool {
    precondition(!hasPending || deliverer != nil, "Observed: a change queued with nobody delivering")
    precondition(pending[pendingHead...].allSatisfy { $0 != nil }, "Observed: a hole in the queue")
    precondition((modifier != nil) == (modifyDepth > 0), "Observed: modifier and depth disagree")
    precondition(shownValue == nil || shownBy == sequence, "Observed: an old value shown after a write")
    return registry.verifyInvariants()
  }
}

extension ObservedAction {
  /// Whether the action makes its thread the delivering one until it leaves.
  @inlinable
  var leaves: Bool {
    if case .deliver(_, _, let leaves) = self { return leaves }
    return false
  }
}
