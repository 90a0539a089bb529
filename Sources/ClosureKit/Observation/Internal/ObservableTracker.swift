public import Dispatch
public import Synchronization

/// What a ``TrackingArm`` tells: ``ObservableTracker`` and ``MainActorObservableTracker``.
@usableFromInline
protocol TrackingArmTarget: AnyObject, Sendable {
  /// The first `onChange` of arm `id`: runs in the willSet of a tracked property, on the writing
  /// thread.
  func armFired(id: UInt64)
  /// An arm was released without having fired: the object (and its registrar) may be gone.
  func armReleased()
}

/// One `withObservationTracking` registration of a tracker.
///
/// Its `onChange` may be called more than once: on this toolchain a willSet that arrives while the
/// registration is being installed can leave a registration behind that fires on every later
/// write. The atomic `fired` flag lets only the first call through, so a re-arm loop can never
/// snowball. The registrar of the observed object holds this arm; when the object is deallocated
/// the arm is released, and its deinit ends the tracker.
@usableFromInline
final class TrackingArm<Tracker: TrackingArmTarget>: Sendable {
  /// The tracker to tell.
  @usableFromInline let tracker: Tracker
  /// Which arming this is; a stale one is ignored by the tracker.
  @usableFromInline let id: UInt64
  /// Set by the first `onChange` call.
  @usableFromInline let fired = Atomic<Bool>(false)

  @inlinable
  init(tracker: Tracker, id: UInt64) {
    self.tracker = tracker
    self.id = id
  }

  deinit {
    // A fired arm has handed over to the hop, which checks the object itself; only an arm released
    // unfired can mean that the object (and its registrar) is gone.
    if !fired.load(ordering: .relaxed) { tracker.armReleased() }
  }

  /// The `onChange` of the registration: runs in the willSet of a tracked property.
  @inlinable
  func fire() {
    guard fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    else { return }
    tracker.armFired(id: id)
  }
}

/// Continuous observation of a key path of an `@Observable` object, built on the one-shot
/// `withObservationTracking`.
///
/// One *cycle*: the tracker is armed (a tracked read of the key path, then a re-read); the first
/// willSet of any property on the path fires the arm: the tracker reads the old value, delivers the
/// prior change and schedules a *hop*; writes until the hop runs are not seen one by one. The hop
/// re-arms, re-reads the value and delivers one post change (old value from the willSet, new value
/// from the re-read). So a burst of writes made on the executor the hop targets becomes one prior
/// and one post change carrying the last value. A hop that had to re-read (a write was seen from
/// another thread) is followed by re-checks (``ObservationRechecks``) that deliver a store landing
/// after it. What is not about where the arm state lives (the
/// object, the handler, the delivery, the ending, the arming) is in ``ObservationCycle``.
@usableFromInline
final class ObservableTracker<Root: AnyObject & Sendable, Value: Sendable>: TrackingArmTarget {
  @usableFromInline
  struct State {
    /// The id of the current arm; older arms are ignored.
    @usableFromInline var armID: UInt64 = 0
    /// Whether a willSet was seen and its hop has not run yet.
    @usableFromInline var isHopPending = false
    /// The value read in that willSet, for the post change.
    @usableFromInline var pendingOld: Value?
    /// The thread of that willSet (for a custom delivery, whose hops run on threads unknown here).
    @usableFromInline var writer: ThreadIdentity?
    /// The id of the current chain of re-checks (``ObservationRechecks``); older ones stop.
    @usableFromInline var recheckID: UInt64 = 0
    /// The value the last post change of the current re-checks carried.
    @usableFromInline var lastDelivered: Value?

    @inlinable init() {}
  }

  /// The object, the handler, the delivery and the ending, shared with the main-actor tracker.
  @usableFromInline let cycle: ObservationCycle<Root, Value>
  @usableFromInline let keyPath: any KeyPath<Root, Value> & Sendable
  @usableFromInline let state = Locked(State())
  /// Set when a write was seen made off the queue or thread that the hops run on; from then on
  /// every arm re-reads the key path after it is installed (see ``ObservationCycle/arm(_:_:_:reread:)``).
  @usableFromInline let sawForeignWrite = Atomic<Bool>(false)
  /// For immediate delivery: the serial queue of the hops of writes made off the main queue, so
  /// that this observation's post callbacks never overlap.
  @usableFromInline let hopQueue: DispatchQueue?

  @usableFromInline
  init(
    root: Root,
    keyPath: any KeyPath<Root, Value> & Sendable,
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void,
    hopQueue: DispatchQueue? = nil,
    runAfter: @escaping RunAfter = ObservationRechecks.dispatch
  ) {
    self.cycle = ObservationCycle(
      root: root, options: options, delivery: delivery, owner: owner, handler: handler, runAfter: runAfter
    )
    self.keyPath = keyPath
    // Observations of several key paths share one hop queue, so their post callbacks never overlap.
    self.hopQueue = delivery.isImmediate ? hopQueue ?? DispatchQueue(label: "ClosureKit.observe.hop") : nil
    if case .queue(let target) = delivery.kind {
      target.setSpecific(key: MainQueueCheck.observedQueueKey, value: ObjectIdentifier(target))
    }
  }

  /// Arms the first cycle and delivers the initial change if asked.
  @inlinable
  func start() -> HandlerSubscription {
    cycle.start { root in
      let id = state.withLock { state in
        state.armID &+= 1
        return state.armID
      }
      return ObservationCycle.arm(root, keyPath, TrackingArm(tracker: self, id: id), reread: true)
    }
  }

  @inlinable
  func armFired(id: UInt64) {
    willChange(armID: id)
  }

  @usableFromInline
  func armReleased() {
    cycle.armReleased()
  }

  /// The willSet moment of a tracked property, on the writing thread.
  @inlinable
  func willChange(armID: UInt64) {
    guard !cycle.isOrphaned else {
      cycle.end()
      return
    }
    let options = cycle.options
    var old: Value?
    if !options.isDisjoint(with: [.old, .prior]) {
      guard let root = cycle.root else {
        cycle.end()
        return
      }
      old = root[keyPath: keyPath]
    }
    let isCustom = if case .custom = cycle.delivery.kind { true } else { false }
    guard !cycle.isEnded else { return }
    let isFirst = state.withLock { state in
      guard state.armID == armID, !state.isHopPending else { return false }
      state.isHopPending = true
      state.pendingOld = old
      if isCustom { state.writer = .current }
      return true
    }
    guard isFirst else { return }
    if options.contains(.prior), let old, let handler = cycle.handler {
      cycle.run(handler, options.priorChange(old: old))
    }
    scheduleHop()
  }

  /// Runs ``flush()`` where the post change belongs: on the delivery's queue or actor, or for
  /// immediate delivery on the main queue when the write was made there, else on a serial queue of
  /// this observation. When the write was made on that queue, the hop is enqueued behind the
  /// writing job (exact); otherwise the writer may still be inside the setter, so the hop waits a
  /// grace period (``ObservationCycle/foreignHopDelay``) to let the write complete first.
  @inlinable
  func scheduleHop() {
    let queue: DispatchQueue
    let isOwnQueue: Bool
    switch cycle.delivery.kind {
    case .immediate:
      isOwnQueue = MainQueueCheck.isOnMainQueue
      queue = isOwnQueue ? .main : hopQueue ?? .main
    case .mainActor:
      isOwnQueue = MainQueueCheck.isOnMainQueue
      queue = .main
    case .queue(let target):
      isOwnQueue = DispatchQueue.getSpecific(key: MainQueueCheck.observedQueueKey) == ObjectIdentifier(target)
      queue = target
    case .custom(let schedule):
      schedule { [self] in flush() }
      return
    }
    if isOwnQueue {
      queue.async { [self] in flush() }
    } else {
      sawForeignWrite.store(true, ordering: .relaxed)
      cycle.runAfter(queue, ObservationCycle<Root, Value>.foreignHopDelay) { [self] in flush() }
    }
  }

  /// Runs `job` after `delay` where the hops of writes from other threads run: the delivery's queue
  /// or the main queue, this observation's hop queue for immediate delivery, or (for a custom
  /// delivery) through its scheduler.
  @inlinable
  func runAfter(_ delay: DispatchTimeInterval, _ job: @escaping @Sendable () -> Void) {
    switch cycle.delivery.kind {
    case .immediate: cycle.runAfter(hopQueue ?? .main, delay, job)
    case .mainActor: cycle.runAfter(.main, delay, job)
    case .queue(let target): cycle.runAfter(target, delay, job)
    case .custom(let schedule): cycle.runAfter(.global(), delay) { schedule(job) }
    }
  }

  /// The hop: re-arms, re-reads and delivers the post change of the cycle.
  @inlinable
  func flush() {
    guard let root = cycle.root, !cycle.isOrphaned else {
      cycle.end()
      return
    }
    guard !cycle.isEnded else { return }
    // One lock section: end the pending hop, take its old value, and start the next arm.
    let pending = state.withLock { state -> Pending? in
      guard state.isHopPending else { return nil }
      state.isHopPending = false
      state.armID &+= 1
      state.recheckID &+= 1
      state.lastDelivered = nil
      defer { state.pendingOld = nil }
      return Pending(old: state.pendingOld, armID: state.armID, writer: state.writer, recheckID: state.recheckID)
    }
    guard let pending else { return }
    if case .custom = cycle.delivery.kind, pending.writer != .current {
      sawForeignWrite.store(true, ordering: .relaxed)
    }
    let rereads = sawForeignWrite.load(ordering: .relaxed)
    let new = ObservationCycle.arm(root, keyPath, TrackingArm(tracker: self, id: pending.armID), reread: rereads)
    guard !cycle.isEnded, let handler = cycle.handler else { return }
    if rereads {
      // A write from another thread whose willSet came before this arm may not have stored yet.
      state.withLock { state in
        if state.recheckID == pending.recheckID { state.lastDelivered = new }
      }
    }
    handler(cycle.options.postChange(old: pending.old, new: new))
    if rereads {
      let id = pending.recheckID
      runAfter(ObservationRechecks.delay(before: 0)) { [self] in recheck(id, step: 0) }
    }
  }

  /// Re-check `step` of the chain `id` (``ObservationRechecks``): reads the key path and delivers
  /// one more post change if the value differs from the last one delivered. Stops when a newer hop
  /// is pending or has started its own re-checks, when the observation has ended, or after the last
  /// step.
  @inlinable
  func recheck(_ id: UInt64, step: Int) {
    guard let root = cycle.root, !cycle.isOrphaned else {
      cycle.end()
      return
    }
    let last = state.withLock { state in
      state.recheckID == id && !state.isHopPending ? state.lastDelivered : nil
    }
    guard !cycle.isEnded, let last else { return }
    let value = root[keyPath: keyPath]
    if !ObservationRechecks.isSame(last, value) {
      let isCurrent = state.withLock { state in
        guard state.recheckID == id, !state.isHopPending else { return false }
        state.lastDelivered = value
        return true
      }
      guard isCurrent else { return }
      guard let handler = cycle.handler else { return }
      handler(cycle.options.postChange(old: last, new: value))
    }
    let next = step + 1
    guard next < ObservationRechecks.count else { return }
    runAfter(ObservationRechecks.delay(before: next)) { [self] in recheck(id, step: next) }
  }

  /// What a hop takes from the state in its one lock section.
  @usableFromInline
  struct Pending {
    @usableFromInline let old: Value?
    @usableFromInline let armID: UInt64
    @usableFromInline let writer: ThreadIdentity?
    @usableFromInline let recheckID: UInt64

    @inlinable
    init(old: Value?, armID: UInt64, writer: ThreadIdentity?, recheckID: UInt64) {
      self.old = old
      self.armID = armID
      self.writer = writer
      self.recheckID = recheckID
    }
  }
}

/// Whether the calling code runs on the main queue (the main actor's executor), without Foundation.
@usableFromInline
enum MainQueueCheck {
  /// A marker set on the main queue once.
  @usableFromInline static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Set on every queue an observation delivers to, with the queue's identity, so a willSet can
  /// tell whether it runs on (or targets) that queue.
  @usableFromInline static let observedQueueKey = DispatchSpecificKey<ObjectIdentifier>()

  /// Whether the current queue is the main queue.
  @inlinable static var isOnMainQueue: Bool {
    DispatchQueue.getSpecific(key: key) ?? false
  }
}
