public import Dispatch

/// Continuous observation of a key path of a `@MainActor` `@Observable` object: the cycle of
/// ``ObservableTracker`` with every read of the key path, every arm and every hop on the main
/// actor. The key path (not `Sendable`: it names main-actor-isolated properties) never leaves the
/// main actor; only the `Sendable` values and the handler cross to the delivery.
///
/// `@inlinable` like ``ObservableTracker``, so that the cycle is specialised for the model and the
/// value in the caller.
@MainActor @usableFromInline
final class MainActorObservableTracker<Root: AnyObject & Sendable, Value: Sendable>: TrackingArmTarget {
  /// The object, the handler, the delivery and the ending, shared with ``ObservableTracker``.
  @usableFromInline nonisolated let cycle: ObservationCycle<Root, Value>
  @usableFromInline let keyPath: KeyPath<Root, Value>

  /// The id of the current arm; older arms are ignored.
  @usableFromInline var armID: UInt64 = 0
  /// Whether a willSet was seen and its hop has not run yet.
  @usableFromInline var isHopPending = false
  /// The value read in that willSet, for the post change.
  @usableFromInline var pendingOld: Value?
  /// The value read when the observation was last armed: the old value of a write made off the
  /// main actor, whose willSet could not read the key path.
  @usableFromInline var lastValue: Value?
  /// Whether a write made off the main actor was seen: from then on every arm re-reads the key
  /// path after it is installed (see ``ObservationCycle/arm(_:_:_:reread:)``).
  @usableFromInline var sawForeignWrite = false
  /// The id of the current chain of re-checks (``ObservationRechecks``); older ones stop.
  @usableFromInline var recheckID: UInt64 = 0

  @inlinable
  init(
    root: Root,
    keyPath: KeyPath<Root, Value>,
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void,
    runAfter: @escaping RunAfter = ObservationRechecks.dispatch
  ) {
    self.cycle = ObservationCycle(
      root: root, options: options, delivery: delivery, owner: owner, handler: handler, runAfter: runAfter
    )
    self.keyPath = keyPath
  }

  /// Arms the first cycle and delivers the initial change if asked.
  @inlinable
  func start() -> HandlerSubscription {
    cycle.start { root in arm(root, reread: true) }
  }

  /// Arms the next cycle (``ObservationCycle/arm(_:_:_:reread:)``) and returns the value read.
  @inlinable
  func arm(_ root: Root, reread: Bool) -> Value {
    armID &+= 1
    let value = ObservationCycle.arm(root, keyPath, TrackingArm(tracker: self, id: armID), reread: reread)
    lastValue = value
    return value
  }

  /// The first `onChange` of an arm, on the writing thread. A main-actor model is written on the
  /// main actor, so the willSet work runs at once; a write made elsewhere (only possible through a
  /// non-isolated object along a key-path chain) is forwarded to the main actor, where the key path
  /// may be read.
  @inlinable
  nonisolated func armFired(id: UInt64) {
    if MainQueueCheck.isOnMainQueue {
      MainActor.assumeIsolated { willChange(armID: id, isOnWritingThread: true) }
    } else {
      DispatchQueue.main.async { [self] in
        MainActor.assumeIsolated { willChange(armID: id, isOnWritingThread: false) }
      }
    }
  }

  /// Called when an arm is released (on any thread): if the object is gone, the observation ends.
  @usableFromInline nonisolated func armReleased() {
    cycle.armReleased()
  }

  /// The willSet moment of a tracked property: on the main actor, in the willSet itself when the
  /// write is made on the main actor (the property still holds the old value), else after the
  /// forward from the writing thread (the old value is then the last value this observation read).
  @inlinable
  func willChange(armID: UInt64, isOnWritingThread: Bool) {
    guard !cycle.isOrphaned else {
      cycle.end()
      return
    }
    guard armID == self.armID, !isHopPending, let handler = cycle.handler else { return }
    let options = cycle.options
    var old: Value?
    if !options.isDisjoint(with: [.old, .prior]) {
      if isOnWritingThread {
        guard let root = cycle.root else {
          cycle.end()
          return
        }
        old = root[keyPath: keyPath]
      } else {
        old = lastValue
      }
    }
    isHopPending = true
    pendingOld = old
    if !isOnWritingThread { sawForeignWrite = true }
    if options.contains(.prior), let old {
      cycle.run(handler, options.priorChange(old: old))
    }
    scheduleHop(isOnWritingThread: isOnWritingThread)
  }

  /// Runs ``flush()`` on the main actor: enqueued behind the writing job when the write was made
  /// on the main actor (exact), else after ``ObservationCycle/foreignHopDelay``, to let a writer on
  /// another thread finish its store.
  @inlinable
  func scheduleHop(isOnWritingThread: Bool) {
    let job: @Sendable () -> Void = { [self] in MainActor.assumeIsolated { flush() } }
    if isOnWritingThread {
      DispatchQueue.main.async(execute: job)
    } else {
      cycle.runAfter(.main, ObservationCycle<Root, Value>.foreignHopDelay, job)
    }
  }

  /// The hop: re-arms, re-reads if needed and delivers the post change of the cycle.
  @inlinable
  func flush() {
    guard let root = cycle.root, !cycle.isOrphaned else {
      cycle.end()
      return
    }
    guard isHopPending else { return }
    isHopPending = false
    let old = pendingOld
    pendingOld = nil
    recheckID &+= 1
    let rereads = sawForeignWrite
    let new = arm(root, reread: rereads)
    guard let handler = cycle.handler else { return }
    cycle.run(handler, cycle.options.postChange(old: old, new: new))
    // A write from another thread whose willSet came before this arm may not have stored yet.
    if rereads { scheduleRecheck(recheckID, step: 0) }
  }

  /// Runs re-check `step` of the chain `id` on the main actor after its delay.
  @inlinable
  func scheduleRecheck(_ id: UInt64, step: Int) {
    cycle.runAfter(.main, ObservationRechecks.delay(before: step)) { [self] in
      MainActor.assumeIsolated { recheck(id, step: step) }
    }
  }

  /// Re-check `step` of the chain `id` (``ObservationRechecks``): reads the key path and delivers
  /// one more post change if the value differs from the last one delivered (``lastValue``, also
  /// the old value of the next write from another thread). Stops when a newer hop is pending or has
  /// started its own re-checks, when the observation has ended, or after the last step.
  @inlinable
  func recheck(_ id: UInt64, step: Int) {
    guard let root = cycle.root, !cycle.isOrphaned else {
      cycle.end()
      return
    }
    guard id == recheckID, !isHopPending, let handler = cycle.handler, let last = lastValue else { return }
    let value = root[keyPath: keyPath]
    if !ObservationRechecks.isSame(last, value) {
      lastValue = value
      cycle.run(handler, cycle.options.postChange(old: last, new: value))
    }
    let next = step + 1
    if next < ObservationRechecks.count { scheduleRecheck(id, step: next) }
  }
}
