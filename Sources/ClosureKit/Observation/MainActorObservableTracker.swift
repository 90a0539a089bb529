public import Dispatch
public import Observation
public import Synchronization

/// Continuous observation of a key path of a `@MainActor` `@Observable` object: the cycle of
/// ``ObservableTracker`` with every read of the key path, every arm and every hop on the main
/// actor. The key path (not `Sendable`: it names main-actor-isolated properties) never leaves the
/// main actor; only the `Sendable` values and the handler cross to the delivery.
///
/// `@inlinable` like ``ObservableTracker``, so that the cycle is specialised for the model and the
/// value in the caller.
@MainActor @usableFromInline
final class MainActorObservableTracker<Root: AnyObject & Sendable, Value: Sendable>: SubscriptionSource,
  TrackingArmTarget
{
  /// Held weakly: observing never keeps the object alive. Read off the main actor only to learn
  /// whether the object is gone.
  @usableFromInline nonisolated weak let root: Root?
  @usableFromInline let keyPath: KeyPath<Root, Value>
  @usableFromInline nonisolated let options: ObservationOptions
  @usableFromInline nonisolated let delivery: Delivery
  /// Held weakly; the observation ends when it is deallocated.
  @usableFromInline nonisolated weak let owner: (any AnyObject & Sendable)?
  /// Whether the observation was registered with an owner.
  @usableFromInline nonisolated let isOwnerBound: Bool
  /// The handler; `nil` once the observation has ended (its captures are released then). Locked
  /// because the observation may end on any thread (cancel, deallocation of the object).
  ///
  /// Kept in a struct: a `Locked` of a function type read through the generic `withLock` from an
  /// unspecialised generic class wrapped the stored closure in two more reabstraction thunks at
  /// every read, so each call went through all earlier ones (measured: a chain of 2,000 changes
  /// took 58 µs per change instead of 3 µs; test `aLongChainOfChangesCostsTheSamePerChange`).
  @usableFromInline nonisolated let handler: Locked<HandlerSlot<Value>>
  /// Set (before the handler is released) when the observation ends: a lock-free check.
  @usableFromInline nonisolated let ended = Atomic<Bool>(false)

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
  /// path after it is installed (see ``ObservableTracker/arm(_:id:reread:)``).
  @usableFromInline var sawForeignWrite = false

  @inlinable
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
  @inlinable
  func start() -> Subscription {
    let token = makeToken()
    guard let root else {
      end()
      return token
    }
    let value = arm(root, reread: true)
    if options.contains(.initial) {
      deliver(options.initialChange(value))
    }
    return token
  }

  /// A token for this observation.
  @usableFromInline nonisolated func makeToken() -> Subscription {
    Subscription(source: self, node: nil)
  }

  /// Installs a fresh tracking registration of the key path and returns the current value, read
  /// again after the installation when `reread` (see ``ObservableTracker/arm(_:id:reread:)``).
  @inlinable
  func arm(_ root: Root, reread: Bool) -> Value {
    armID &+= 1
    let arm = TrackingArm(tracker: self, id: armID)
    let keyPath = keyPath
    let tracked = withObservationTracking {
      root[keyPath: keyPath]
    } onChange: {
      arm.fire()
    }
    let value = reread ? root[keyPath: keyPath] : tracked
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

  /// The willSet moment of a tracked property: on the main actor, in the willSet itself when the
  /// write is made on the main actor (the property still holds the old value), else after the
  /// forward from the writing thread (the old value is then the last value this observation read).
  @inlinable
  func willChange(armID: UInt64, isOnWritingThread: Bool) {
    guard !isOrphaned else {
      end()
      return
    }
    guard armID == self.armID, !isHopPending, let handler = handler.withLock({ $0.handler }) else { return }
    var old: Value?
    if !options.isDisjoint(with: [.old, .prior]) {
      if isOnWritingThread {
        guard let root else {
          end()
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
      run(handler, options.priorChange(old: old))
    }
    scheduleHop(isOnWritingThread: isOnWritingThread)
  }

  /// Runs ``flush()`` on the main actor: enqueued behind the writing job when the write was made
  /// on the main actor (exact), else after the grace period of ``ObservableTracker``, to let a
  /// writer on another thread finish its store.
  @inlinable
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

  /// The hop: re-arms, re-reads if needed and delivers the post change of the cycle.
  @inlinable
  func flush() {
    guard let root, !isOrphaned else {
      end()
      return
    }
    guard isHopPending else { return }
    isHopPending = false
    let old = pendingOld
    pendingOld = nil
    let new = arm(root, reread: sawForeignWrite)
    guard let handler = handler.withLock({ $0.handler }) else { return }
    run(handler, options.postChange(old: old, new: new))
  }

  /// Runs `handler` with `change` as the delivery says (immediate: here, on the main actor); a
  /// queued run checks for cancellation first.
  @inlinable
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
  @inlinable
  func deliver(_ change: Change<Value>) {
    guard let handler = handler.withLock({ $0.handler }) else { return }
    run(handler, change)
  }

  /// Whether the observation has ended.
  @inlinable nonisolated var isEnded: Bool {
    ended.load(ordering: .acquiring)
  }

  /// Whether the observation was bound to an owner that is gone.
  @inlinable nonisolated var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }

  /// Called when an arm is released (on any thread): if the object is gone, the observation ends.
  @usableFromInline nonisolated func armReleased() {
    if root == nil { end() }
  }

  /// Ends the observation and releases the handler (outside the lock). Any thread.
  @usableFromInline nonisolated func end() {
    ended.store(true, ordering: .releasing)
    let released = handler.withLock { slot in
      defer { slot.handler = nil }
      return slot.handler
    }
    withExtendedLifetime(released) {}  // released after the lock
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
@usableFromInline
struct HandlerSlot<Value: Sendable>: Sendable {
  @usableFromInline var handler: (@Sendable (Change<Value>) -> Void)?

  @inlinable
  init(handler: (@Sendable (Change<Value>) -> Void)?) {
    self.handler = handler
  }
}
