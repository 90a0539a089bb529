public import Dispatch
public import Observation
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
/// and one post change carrying the last value.
@usableFromInline
final class ObservableTracker<Root: AnyObject & Sendable, Value: Sendable>: SubscriptionSource,
  TrackingArmTarget
{
  @usableFromInline
  struct State {
    /// The handler; `nil` once the observation has ended (its captures are released then).
    @usableFromInline var handler: (@Sendable (Change<Value>) -> Void)?
    /// The id of the current arm; older arms are ignored.
    @usableFromInline var armID: UInt64 = 0
    /// Whether a willSet was seen and its hop has not run yet.
    @usableFromInline var isHopPending = false
    /// The value read in that willSet, for the post change.
    @usableFromInline var pendingOld: Value?
    /// The thread of that willSet (for a custom delivery, whose hops run on threads unknown here).
    @usableFromInline var writer: ThreadIdentity?
  }

  /// Held weakly: observing never keeps the object alive.
  @usableFromInline weak let root: Root?
  @usableFromInline let keyPath: any KeyPath<Root, Value> & Sendable
  @usableFromInline let options: ObservationOptions
  @usableFromInline let delivery: Delivery
  /// Held weakly; the observation ends when it is deallocated.
  @usableFromInline weak let owner: (any AnyObject & Sendable)?
  /// Whether the observation was registered with an owner.
  @usableFromInline let isOwnerBound: Bool
  @usableFromInline let state: Locked<State>
  /// Set (before the handler is released) when the observation ends: a lock-free check for the
  /// paths that run once per change.
  @usableFromInline let ended = Atomic<Bool>(false)
  /// Set when a write was seen made off the queue or thread that the hops run on; from then on
  /// every arm re-reads the key path after it is installed (see ``arm(_:id:reread:)``).
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
    hopQueue: DispatchQueue? = nil
  ) {
    self.root = root
    self.keyPath = keyPath
    self.options = options
    self.delivery = delivery
    self.owner = owner
    self.isOwnerBound = owner != nil
    self.state = Locked(State(handler: handler))
    // Observations of several key paths share one hop queue, so their post callbacks never overlap.
    self.hopQueue = delivery.isImmediate ? hopQueue ?? DispatchQueue(label: "ClosureKit.observe.hop") : nil
    if case .queue(let target) = delivery.kind {
      target.setSpecific(key: MainQueueCheck.observedQueueKey, value: ObjectIdentifier(target))
    }
  }

  /// Arms the first cycle and delivers the initial change if asked.
  @inlinable
  func start() -> Subscription {
    let token = makeToken()
    guard let root else {
      end()
      return token
    }
    let id = state.withLock { state in
      state.armID &+= 1
      return state.armID
    }
    let value = arm(root, id: id, reread: true)
    if options.contains(.initial) {
      deliver(options.initialChange(value))
    }
    return token
  }

  /// A token for this observation.
  @usableFromInline
  func makeToken() -> Subscription {
    Subscription(source: self, node: nil)
  }

  /// Installs a fresh tracking registration of the key path (`id` is the arm id just set in the
  /// state) and returns the current value.
  ///
  /// A write that lands between the tracked read and the installation of the registration is not
  /// reported by the registration on this toolchain; with `reread` the value is read again after
  /// the installation, which sees it. Such a write can only come from another thread while this
  /// one arms, so a hop re-reads once a write from off its own queue or thread has been seen
  /// (``sawForeignWrite``); for a model written only where the hops run, the tracked read is
  /// already the current value and one key-path read per change is saved.
  @inlinable
  func arm(_ root: Root, id: UInt64, reread: Bool) -> Value {
    let arm = TrackingArm(tracker: self, id: id)
    let keyPath = keyPath
    let tracked = withObservationTracking {
      root[keyPath: keyPath]
    } onChange: {
      arm.fire()
    }
    return reread ? root[keyPath: keyPath] : tracked
  }

  @inlinable
  func armFired(id: UInt64) {
    willChange(armID: id)
  }

  /// The willSet moment of a tracked property, on the writing thread.
  @inlinable
  func willChange(armID: UInt64) {
    guard !isOrphaned else {
      end()
      return
    }
    var old: Value?
    if !options.isDisjoint(with: [.old, .prior]) {
      guard let root else {
        end()
        return
      }
      old = root[keyPath: keyPath]
    }
    let handler = state.withLock { state -> (@Sendable (Change<Value>) -> Void)? in
      guard state.handler != nil, state.armID == armID, !state.isHopPending else { return nil }
      state.isHopPending = true
      state.pendingOld = old
      if case .custom = delivery.kind { state.writer = .current }
      return state.handler
    }
    guard let handler else { return }
    if options.contains(.prior), let old {
      run(handler, options.priorChange(old: old))
    }
    scheduleHop()
  }

  /// Runs ``flush()`` where the post change belongs: on the delivery's queue or actor, or for
  /// immediate delivery on the main queue when the write was made there, else on a serial queue of
  /// this observation. When the write was made on that queue, the hop is enqueued behind the
  /// writing job (exact); otherwise the writer may still be inside the setter, so the hop waits a
  /// grace period (``ObservableTracker/foreignHopDelay``) to let the write complete first.
  @inlinable
  func scheduleHop() {
    let queue: DispatchQueue
    let isOwnQueue: Bool
    switch delivery.kind {
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
      queue.asyncAfter(deadline: .now() + Self.foreignHopDelay) { [self] in flush() }
    }
  }

  /// How long a hop waits when the write was made off the hop's queue: long enough for a writer
  /// that was preempted inside the setter to finish the store, short enough to go unnoticed.
  @inlinable static var foreignHopDelay: DispatchTimeInterval { .milliseconds(1) }

  /// The hop: re-arms, re-reads and delivers the post change of the cycle.
  @inlinable
  func flush() {
    guard let root, !isOrphaned else {
      end()
      return
    }
    // One lock section: end the pending hop, take its old value, and start the next arm.
    let cycle = state.withLock { state -> Cycle? in
      guard let handler = state.handler, state.isHopPending else { return nil }
      state.isHopPending = false
      state.armID &+= 1
      defer { state.pendingOld = nil }
      return Cycle(handler: handler, old: state.pendingOld, armID: state.armID, writer: state.writer)
    }
    guard let cycle else { return }
    if case .custom = delivery.kind, cycle.writer != .current {
      sawForeignWrite.store(true, ordering: .relaxed)
    }
    let new = arm(root, id: cycle.armID, reread: sawForeignWrite.load(ordering: .relaxed))
    guard !ended.load(ordering: .acquiring) else { return }
    cycle.handler(options.postChange(old: cycle.old, new: new))
  }

  /// What a hop takes from the state in its one lock section.
  @usableFromInline
  struct Cycle {
    @usableFromInline let handler: @Sendable (Change<Value>) -> Void
    @usableFromInline let old: Value?
    @usableFromInline let armID: UInt64
    @usableFromInline let writer: ThreadIdentity?

    @inlinable
    init(
      handler: @escaping @Sendable (Change<Value>) -> Void,
      old: Value?,
      armID: UInt64,
      writer: ThreadIdentity?
    ) {
      self.handler = handler
      self.old = old
      self.armID = armID
      self.writer = writer
    }
  }

  /// Runs `handler` with `change` as the delivery says; a queued run checks for cancellation first.
  @inlinable
  func run(_ handler: @escaping @Sendable (Change<Value>) -> Void, _ change: Change<Value>) {
    if delivery.isImmediate {
      handler(change)
    } else {
      delivery.execute { [self] in
        guard !ended.load(ordering: .acquiring), !isOrphaned else { return }
        handler(change)
      }
    }
  }

  /// Runs the current handler with `change` as the delivery says.
  @inlinable
  func deliver(_ change: Change<Value>) {
    guard let handler = state.withLock({ $0.handler }) else { return }
    run(handler, change)
  }

  /// Whether the observation was bound to an owner that is gone.
  @usableFromInline var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }

  /// Called when an arm is released: if the object is gone, the observation ends.
  @usableFromInline
  func armReleased() {
    if root == nil { end() }
  }

  /// Ends the observation and releases the handler (outside the lock).
  @usableFromInline
  func end() {
    ended.store(true, ordering: .releasing)
    let handler = state.withLock { state in
      defer { state.handler = nil }
      return state.handler
    }
    withExtendedLifetime(handler) {}  // released after the lock
  }

  // MARK: SubscriptionSource

  package func cancel(_ subscription: Subscription) {
    end()
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    ended.load(ordering: .acquiring) || root == nil || isOrphaned
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {}
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
