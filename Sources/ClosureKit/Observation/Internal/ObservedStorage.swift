public import Synchronization

/// The value and observers behind an ``Observed``, separate from it so that tokens (which hold
/// their source strongly) never keep the box alive; the box closes it from its deinit.
///
/// A ``RegistryHost``: its observers live in the one registry, inside the box's state
/// (``ObservedState``), under the box's ``GateLock``, so that a write stores its value and takes
/// its observers in one critical section. Every operation is a transition of that state, under the
/// lock, that returns what this thread does after it (``ObservedWrite``, ``ObservedRegistration``,
/// ``ObservedChange``): deliver a change, then what was queued meanwhile; release a replaced
/// value; nothing.
///
/// `modify` is the one writer that waits: other threads' writes wait (``GateLock``) while its body
/// runs on a copy (never while handlers run), so the read-modify-write is atomic.
///
/// `@unchecked Sendable`: its state is `gate`'s, read and written only inside its `withLock`;
/// `phase` is atomic (``DeliveryPhase`` says who changes it how); `isEqual` is immutable.
@usableFromInline
final class ObservedStorage<Value: Sendable>: HandlerListSource, RegistryHost, @unchecked Sendable {
  @usableFromInline typealias Payload = Change<Value>
  @usableFromInline typealias Tag = ObservationOptions

  /// The box's state and the lock that guards it.
  @usableFromInline let gate: GateLock<ObservedState<Value>>
  /// Who delivers the callbacks (``DeliveryPhase``).
  @usableFromInline let phase = Atomic<DeliveryPhase>(.idle)
  /// Compares values for boxes that skip equal writes; `nil` for boxes that report every write.
  @usableFromInline let isEqual: (@Sendable (Value, Value) -> Bool)?

  @inlinable
  init(_ value: Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
    gate = GateLock(ObservedState(value: value))
    self.isEqual = isEqual
    // Checked casts: the closures are constants that only this init sets, on this very storage.
    super.init(
      removeEnded: { source, nodes in (source as! ObservedStorage<Value>).remove(nodes) },
      removeOneEnded: { source, node in (source as! ObservedStorage<Value>).remove(node) }
    )
  }

  @inlinable @inline(__always)
  func withRegistry<Result>(_ body: (inout HandlerListState<Change<Value>, ObservationOptions>) -> Result) -> Result {
    // Every removal of an entry comes through here; a change drops the single observer's box,
    // released after the lock unless it is borrowed (see `ObservedBorrow.swift`).
    var dropped: ObservedState<Value>.Single?
    let result = gate.withLock { state in
      let result = body(&state.registry)
      if let box = state.registry.takeDroppedSingle() { dropped = state.retire(box, phase: phase) }
      return result
    }
    withExtendedLifetime(dropped) {}
    return result
  }

  // MARK: Reading and writing

  /// The current value (the old one during the prior callbacks of a write delivered at once).
  @inlinable
  func read() -> Value {
    gate.withLock { $0.readValue }
  }

  /// Replaces the value: one change, delivered by this thread now or by the delivering thread.
  @inlinable
  func write(_ newValue: Value) {
    let me = currentThreadHandle
    var observers = ContiguousArray<Entry>()
    guard let isEqual else {
      let write = gate.withLock(waitingWhile: { $0.isGated(for: me) }) {
        $0.write(newValue, by: me, endingModify: false, observers: &observers, phase: phase)
      }
      return run(write, observers, new: newValue, me)
    }
    // `==` is the user's code: it runs outside the lock, and the write is made only if no other
    // write came between.
    while true {
      let (current, sequence) = gate.withLock(waitingWhile: { $0.isGated(for: me) }) { ($0.value, $0.sequence) }
      if isEqual(current, newValue) { return }
      let write = gate.withLock(waitingWhile: { $0.isGated(for: me) }) { state -> ObservedWrite<Value>? in
        guard state.sequence == sequence else { return nil }
        return state.write(newValue, by: me, endingModify: false, observers: &observers, phase: phase)
      }
      if let write { return run(write, observers, new: newValue, me) }
    }
  }

  /// Changes the value in place as one write: `body` runs on a copy while other threads' writes
  /// wait.
  @inlinable
  func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    let me = currentThreadHandle
    var new = gate.withLock(waitingWhile: { $0.isGated(for: me) }) { $0.beginModify(by: me) }
    let result: Result
    do {
      result = try body(&new)
    } catch {
      gate.withLock { $0.endModify() }
      throw error
    }
    if let isEqual {
      // Only this thread writes until the body ends, so the value compared is still current.
      let current = gate.withLock { $0.value }
      if isEqual(current, new) {
        gate.withLock { $0.endModify() }
        return result
      }
    }
    var observers = ContiguousArray<Entry>()
    let write = gate.withLock { $0.write(new, by: me, endingModify: true, observers: &observers, phase: phase) }
    run(write, observers, new: new, me)
    return result
  }

  // MARK: Registration

  /// The critical section of a registration (``RegistryHost/registerLocked(_:extended:site:)``,
  /// the registry's one registration path): the registry's, with the box's state, so that the
  /// initial callback (when the options ask for it) is scheduled in the same critical section, in
  /// its place among the writes; delivered first, or queued.
  @inlinable @inline(__always)
  func registerLocked(
    _ entry: __owned Entry,
    extended: ExtendedNode?,
    site: RegistrationSite?
  ) -> ObservedRegistration<Value> {
    let initial = entry.tag.contains(.initial)
    let me = currentThreadHandle
    return gate.withLock { state in
      state.register(entry, extended: extended, site: site, initial: initial, by: me, phase: phase)
    }
  }

  /// Registrations go through ``registerLocked(_:extended:site:)``.
  @inlinable
  static var hasOwnRegistration: Bool { true }

  /// After a registration's lock: delivers the initial callback when this thread delivers it. (The
  /// single observer's box the registration dropped, `registered.dropped`, goes with `registered`,
  /// after the lock.)
  @inlinable @inline(__always)
  func didRegister(_ registered: __shared ObservedRegistration<Value>) {
    if let change = registered.initial {
      deliver(change)
      if registered.step == .deliverAndLeave { leave(registered.me) }
    }
  }

  /// The number of observers that have not ended.
  var observerCount: Int { count() }

  // MARK: Delivering

  /// Does what a write's transition returned, after the lock: delivers the change (to the box it
  /// borrowed, or to `observers`), then, if this thread became the delivering thread, what was
  /// queued meanwhile, and leaves. A replaced value nobody is told of is released with `write`.
  @inlinable @inline(__always)
  func run(
    _ write: borrowing ObservedWrite<Value>, _ observers: borrowing ContiguousArray<Entry>, new: Value, _ me: Int
  ) {
    guard write.step != .none else { return }
    let old = write.old
    if let borrowed = write.borrowed {
      // Borrowed: no retain and release of the handler's captures (see `ObservedBorrow.swift`).
      borrowed._withUnsafeGuaranteedRef { $0.callIfLive($0.tag.postChange(old: old, new: new)) }
    } else {
      let observers = copy observers
      let shown = write.showsPriorOf
      if shown != 0 {
        deliver(to: observers) { $0.contains(.prior) ? $0.priorChange(old: old) : nil }
        gate.withLock { $0.endPrior(of: shown) }
      }
      deliver(to: observers) { $0.postChange(old: old, new: new) }
    }
    if write.step == .deliverAndLeave { leave(me) }
  }

  /// On the delivering thread, after its change: leaves, without the lock when nothing was
  /// queued (``DeliveryPhase``); else delivers the queued changes first (``deliverQueued(_:)``).
  @inlinable @inline(__always)
  func leave(_ me: Int) {
    if leaveWithoutLock() { return }
    deliverQueued(me)
  }

  /// On the delivering thread, when its lock-free leave failed: delivers the queued changes until
  /// none is left, then leaves.
  @inlinable @inline(never)
  func deliverQueued(_ me: Int) {
    while !leaveWithoutLock() {
      let (next, parked, merged) = gate.withLock { $0.leave(me, phase: phase) }
      withExtendedLifetime((parked, merged)) {}  // released after the lock
      guard let next else { return }
      deliver(next)
    }
  }

  /// Delivers a queued change or an initial callback: a write's prior callbacks, then its post
  /// callbacks; or the initial callback.
  @inlinable
  func deliver(_ change: ObservedChange<Value>) {
    let new = change.new
    guard let old = change.old else {
      return deliver(to: change.observers) { $0.initialChange(new) }
    }
    if ObservedState.hasPriorObserver(in: change.observers) {
      // A write made by a prior callback is queued behind this change (``ObservedState/isInPrior``).
      gate.withLock { $0.isInPrior = true }
      deliver(to: change.observers) { $0.contains(.prior) ? $0.priorChange(old: old) : nil }
      gate.withLock { $0.isInPrior = false }
    }
    deliver(to: change.observers) { $0.postChange(old: old, new: new) }
  }

  /// Checks the state's invariants (``ObservedState/verifyInvariants(phase:)``); for tests.
  package func verifyObservedInvariants() -> Bool {
    gate.withLock { $0.verifyInvariants(phase: phase) }
  }
}
