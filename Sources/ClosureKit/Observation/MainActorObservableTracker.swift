import Dispatch
import Observation
import Synchronization

/// One `withObservationTracking` registration of a ``MainActorObservableTracker``, guarded by an
/// atomic fired-once flag exactly like ``TrackingArm``.
final class MainActorTrackingArm<Root: AnyObject & Sendable, Value: Sendable>: Sendable {
  /// The tracker to tell.
  let tracker: MainActorObservableTracker<Root, Value>
  /// Which arming this is; a stale one is ignored by the tracker.
  let id: UInt64
  /// Set by the first `onChange` call.
  let fired = Atomic<Bool>(false)

  init(tracker: MainActorObservableTracker<Root, Value>, id: UInt64) {
    self.tracker = tracker
    self.id = id
  }

  deinit {
    tracker.armReleased()
  }

  /// The `onChange` of the registration: runs in the willSet of a tracked property, on the writing
  /// thread. A main-actor model is written on the main actor, so the tracker is told at once; a
  /// write made elsewhere (only possible through a non-isolated object along a key-path chain) is
  /// forwarded to the main actor, where the key path may be read.
  func fire() {
    guard fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    else { return }
    let tracker = tracker
    let id = id
    if MainQueueCheck.isOnMainQueue {
      MainActor.assumeIsolated { tracker.willChange(armID: id, isOnWritingThread: true) }
    } else {
      DispatchQueue.main.async {
        MainActor.assumeIsolated { tracker.willChange(armID: id, isOnWritingThread: false) }
      }
    }
  }
}

/// Continuous observation of a key path of a `@MainActor` `@Observable` object: the cycle of
/// ``ObservableTracker`` with every read of the key path, every arm and every hop on the main
/// actor. The key path (not `Sendable`: it names main-actor-isolated properties) never leaves the
/// main actor; only the `Sendable` values and the handler cross to the delivery.
@MainActor
final class MainActorObservableTracker<Root: AnyObject & Sendable, Value: Sendable>: SubscriptionSource {
  /// Held weakly: observing never keeps the object alive. Read off the main actor only to learn
  /// whether the object is gone.
  nonisolated weak let root: Root?
  let keyPath: KeyPath<Root, Value>
  nonisolated let options: ObservationOptions
  nonisolated let delivery: Delivery
  /// Held weakly; the observation ends when it is deallocated.
  nonisolated weak let owner: (any AnyObject & Sendable)?
  /// Whether the observation was registered with an owner.
  nonisolated let isOwnerBound: Bool
  /// The handler; `nil` once the observation has ended (its captures are released then). Locked
  /// because the observation may end on any thread (cancel, deallocation of the object).
  ///
  /// Kept in a struct: a `Locked` of a function type read through the generic `withLock` from this
  /// (unspecialised) generic class wrapped the stored closure in two more reabstraction thunks at
  /// every read, so each call went through all earlier ones (measured: a chain of 2,000 changes
  /// took 58 µs per change instead of 3 µs; test `aLongChainOfChangesCostsTheSamePerChange`).
  nonisolated let handler: Locked<HandlerSlot<Value>>

  /// The id of the current arm; older arms are ignored.
  var armID: UInt64 = 0
  /// Whether a willSet was seen and its hop has not run yet.
  var isHopPending = false
  /// The value read in that willSet, for the post change.
  var pendingOld: Value?
  /// The value read when the observation was last armed: the old value of a write made off the
  /// main actor, whose willSet could not read the key path.
  var lastValue: Value?

  init(
    root: Root,
    keyPath: KeyPath<Root, Value>,
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void
  ) {
    self.root = root
    self.keyPath = keyPath
    self.options = options
    self.delivery = delivery
    self.owner = owner
    self.isOwnerBound = owner != nil
    self.handler = Locked(HandlerSlot(handler: handler))
  }

  /// Arms the first cycle and delivers the initial change if asked.
  func start() -> Subscription {
    let token = Subscription(source: self, node: nil)
    guard let root else {
      end()
      return token
    }
    let value = arm(root)
    if options.contains(.initial) {
      deliver(options.initialChange(value))
    }
    return token
  }

  /// Installs a fresh tracking registration of the key path; returns the value re-read after it is
  /// installed.
  func arm(_ root: Root) -> Value {
    armID &+= 1
    let arm = MainActorTrackingArm(tracker: self, id: armID)
    let keyPath = keyPath
    _ = withObservationTracking {
      root[keyPath: keyPath]
    } onChange: {
      arm.fire()
    }
    let value = root[keyPath: keyPath]
    lastValue = value
    return value
  }

  /// The willSet moment of a tracked property: on the main actor, in the willSet itself when the
  /// write is made on the main actor (the property still holds the old value), else after the
  /// forward from the writing thread (the old value is then the last value this observation read).
  func willChange(armID: UInt64, isOnWritingThread: Bool) {
    guard let root, !isOrphaned else {
      end()
      return
    }
    guard armID == self.armID, !isHopPending, let handler = handler.withLock({ $0.handler }) else { return }
    isHopPending = true
    let old: Value? =
      if options.isDisjoint(with: [.old, .prior]) {
        nil
      } else if isOnWritingThread {
        root[keyPath: keyPath]
      } else {
        lastValue
      }
    pendingOld = old
    if options.contains(.prior), let old {
      run(handler, options.priorChange(old: old))
    }
    scheduleHop(isOnWritingThread: isOnWritingThread)
  }

  /// Runs ``flush()`` on the main actor: enqueued behind the writing job when the write was made
  /// on the main actor (exact), else after the grace period of ``ObservableTracker``, to let a
  /// writer on another thread finish its store.
  func scheduleHop(isOnWritingThread: Bool) {
    let job: @Sendable () -> Void = { [self] in MainActor.assumeIsolated { flush() } }
    if isOnWritingThread {
      DispatchQueue.main.async(execute: job)
    } else {
      DispatchQueue.main.asyncAfter(
        deadline: .now() + ObservableTracker<Root, Value>.foreignHopDelay,
        execute: job
      )
    }
  }

  /// The hop: re-arms, re-reads and delivers the post change of the cycle.
  func flush() {
    guard let root, !isOrphaned else {
      end()
      return
    }
    guard isHopPending else { return }
    isHopPending = false
    let old = pendingOld
    pendingOld = nil
    let new = arm(root)
    guard let handler = handler.withLock({ $0.handler }) else { return }
    run(handler, options.postChange(old: old, new: new))
  }

  /// Runs `handler` with `change` as the delivery says (immediate: here, on the main actor); a
  /// queued run checks for cancellation first.
  func run(_ handler: @escaping @Sendable (Change<Value>) -> Void, _ change: Change<Value>) {
    if delivery.isImmediate {
      handler(change)
    } else {
      delivery.execute { [self] in
        guard !isEnded, !isOrphaned else { return }
        handler(change)
      }
    }
  }

  /// Runs the current handler with `change` as the delivery says.
  func deliver(_ change: Change<Value>) {
    guard let handler = handler.withLock({ $0.handler }) else { return }
    run(handler, change)
  }

  /// Whether the handler has been released.
  nonisolated var isEnded: Bool {
    handler.withLock { $0.handler == nil }
  }

  /// Whether the observation was bound to an owner that is gone.
  nonisolated var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }

  /// Called when an arm is released (on any thread): if the object is gone, the observation ends.
  nonisolated func armReleased() {
    if root == nil { end() }
  }

  /// Ends the observation and releases the handler (outside the lock). Any thread.
  nonisolated func end() {
    let released = handler.withLock { slot in
      defer { slot.handler = nil }
      return slot.handler
    }
    _ = released
  }

  // MARK: SubscriptionSource

  package nonisolated func cancel(_ subscription: Subscription) {
    end()
  }

  package nonisolated func isCancelled(_ subscription: Subscription) -> Bool {
    isEnded || root == nil || isOrphaned
  }

  package nonisolated func subscriptionWillDeinit(_ subscription: Subscription) {}
}

/// The handler of an observation, or `nil` once it has ended.
struct HandlerSlot<Value: Sendable>: Sendable {
  var handler: (@Sendable (Change<Value>) -> Void)?
}
