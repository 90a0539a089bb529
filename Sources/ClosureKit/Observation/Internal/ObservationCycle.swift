public import Dispatch
public import Observation
public import Synchronization

/// What the two `@Observable` trackers (``ObservableTracker`` and ``MainActorObservableTracker``)
/// share: the object and the owner (both weak), the options and the delivery, the handler and how
/// the observation ends, the token, and one *arming* of the cycle (a tracked read of the key path
/// through `withObservationTracking`). Each tracker keeps only where its arm state lives: under a
/// lock (any thread) or on the main actor.
///
/// The token of an observation is this object (``SubscriptionSource``); the arms hold the tracker,
/// and the tracker holds this.
@usableFromInline
final class ObservationCycle<Root: AnyObject & Sendable, Value: Sendable>: SubscriptionSource {
  /// Held weakly: observing never keeps the object alive.
  @usableFromInline weak let root: Root?
  @usableFromInline let options: ObservationOptions
  @usableFromInline let delivery: Delivery
  /// Held weakly; the observation ends when it is deallocated.
  @usableFromInline weak let owner: (any AnyObject & Sendable)?
  /// Whether the observation was registered with an owner.
  @usableFromInline let isOwnerBound: Bool
  /// The handler; `nil` once the observation has ended (its captures are released then). Locked
  /// because the observation may end on any thread (cancel, deallocation of the object).
  ///
  /// Kept in a struct: a `Locked` of a function type read through the generic `withLock` from an
  /// unspecialised generic class wrapped the stored closure in two more reabstraction thunks at
  /// every read, so each call went through all earlier ones: a long chain of changes cost more per
  /// change the longer it ran (test `aLongChainOfChangesCostsTheSamePerChange`).
  @usableFromInline let slot: Locked<HandlerSlot<Value>>
  /// Set (before the handler is released) when the observation ends: a lock-free check for the
  /// paths that run once per change.
  @usableFromInline let ended = Atomic<Bool>(false)
  /// How the observation waits: the hop's grace period and the re-checks (``ObservationRechecks``).
  @usableFromInline let runAfter: RunAfter

  @inlinable
  init(
    root: Root,
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void,
    runAfter: @escaping RunAfter
  ) {
    self.root = root
    self.options = options
    self.delivery = delivery
    self.owner = owner
    self.isOwnerBound = owner != nil
    self.slot = Locked(HandlerSlot(handler: handler))
    self.runAfter = runAfter
  }

  /// How long a hop waits when the write was made off the hop's queue: long enough for most writers
  /// to finish the store, short enough to go unnoticed. A writer preempted inside the setter for
  /// longer is caught by the re-checks that follow the hop (``ObservationRechecks``).
  @inlinable static var foreignHopDelay: DispatchTimeInterval { .milliseconds(1) }

  /// Installs a fresh tracking registration of `keyPath` whose first change fires `arm`, and
  /// returns the current value.
  ///
  /// A write that lands between the tracked read and the installation of the registration is not
  /// reported by the registration on this toolchain; with `reread` the value is read again after
  /// the installation, which sees it. Such a write can only come from another thread while this
  /// one arms, so a hop re-reads once a write from off its own queue or thread has been seen;
  /// for a model written only where the hops run, the tracked read is already the current value
  /// and one key-path read per change is saved. Runs where the tracker reads the key path (any
  /// thread, or the main actor for a main-actor model).
  @inlinable
  static func arm<Tracker>(
    _ root: Root,
    _ keyPath: KeyPath<Root, Value>,
    _ arm: TrackingArm<Tracker>,
    reread: Bool
  ) -> Value {
    let tracked = withObservationTracking {
      root[keyPath: keyPath]
    } onChange: {
      arm.fire()
    }
    return reread ? root[keyPath: keyPath] : tracked
  }

  /// Starts the observation: `arm` arms the first cycle (where the tracker keeps its arm state)
  /// and returns the value read; the initial change is delivered if asked. Returns the token.
  @inlinable
  func start(arming arm: (Root) -> Value) -> HandlerSubscription {
    let token = makeToken()
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

  /// The handler, or `nil` once the observation has ended.
  @inlinable var handler: (@Sendable (Change<Value>) -> Void)? {
    slot.withLock { $0.handler }
  }

  /// Runs `handler` with `change` as the delivery says (immediate: here, on the calling thread);
  /// a queued run checks for cancellation first.
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
    guard let handler else { return }
    run(handler, change)
  }

  /// A token for this observation.
  @usableFromInline
  func makeToken() -> HandlerSubscription {
    HandlerSubscription(source: self, node: nil)
  }

  /// Whether the observation has ended.
  @inlinable var isEnded: Bool {
    ended.load(ordering: .acquiring)
  }

  /// Whether the observation was bound to an owner that is gone.
  @inlinable var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }

  /// Called when an arm is released (on any thread): if the object is gone, the observation ends.
  @usableFromInline
  func armReleased() {
    if root == nil { end() }
  }

  /// Ends the observation and releases the handler (outside the lock). Any thread.
  @usableFromInline
  func end() {
    ended.store(true, ordering: .releasing)
    let released = slot.withLock { $0.handler.take() }
    withExtendedLifetime(released) {}  // released after the lock
  }

  // MARK: SubscriptionSource

  package func cancel(_ subscription: HandlerSubscription) {
    end()
  }

  package func isCancelled(_ subscription: HandlerSubscription) -> Bool {
    isEnded || root == nil || isOrphaned
  }
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
