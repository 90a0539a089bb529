public import Synchronization

/// One handler registered on an ``Observed``.
///
/// `@unchecked Sendable`: `token` is read and written only under the storage's lock; everything
/// else is immutable or atomic.
@usableFromInline
final class ObservedObserver<Value: Sendable>: @unchecked Sendable {
  /// What the handler asked to be told.
  @usableFromInline let options: ObservationOptions
  /// Where the handler runs.
  @usableFromInline let delivery: Delivery
  /// The handler (owner-bound handlers are wrapped to hold the owner weakly).
  @usableFromInline let handler: @Sendable (Change<Value>) -> Void
  /// Set once the handler has ended: cancelled, owner gone, or the box gone.
  @usableFromInline let ended = Atomic<Bool>(false)
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline weak let owner: (any AnyObject & Sendable)?
  /// Whether the handler was registered with an owner.
  @usableFromInline let isOwnerBound: Bool
  /// The token that refers to this observer; cleared when the observer ends so it lets go of it.
  @usableFromInline weak var token: Subscription?

  @usableFromInline
  init(
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void
  ) {
    self.options = options
    self.delivery = delivery
    self.owner = owner
    self.isOwnerBound = owner != nil
    self.handler = handler
  }

  /// Whether the handler will not run again.
  @inlinable var isEnded: Bool {
    ended.load(ordering: .acquiring) || (isOwnerBound && owner == nil)
  }
}

/// The state and observer list behind an ``Observed``, separate from it so that tokens (which hold
/// their source strongly) never keep the box alive; the box closes it from its deinit.
///
/// Writes pass a re-entrant *gate*: the writing thread holds it from before its prior callbacks to
/// after its post callbacks, so concurrent writers are serialised and every observer sees the
/// changes in write order. The gate is not the mutex: handlers run with the mutex released, may
/// read, write (depth-first, on the same thread), add and cancel.
@usableFromInline
final class ObservedStorage<Value: Sendable>: SubscriptionSource, @unchecked Sendable {
  // @unchecked Sendable: `gateDepth` is touched only by the gate's holder; the rest is atomic,
  // immutable, or under the mutex.
  @usableFromInline typealias Observer = ObservedObserver<Value>

  @usableFromInline
  struct State {
    /// The current value.
    @usableFromInline var value: Value
    /// Live observers in registration order.
    @usableFromInline var observers: ContiguousArray<Observer> = []
    /// How many live observers asked for ``ObservationOptions/prior``.
    @usableFromInline var priorCount = 0
    /// How many live observers were registered with an owner (swept on registration).
    @usableFromInline var ownerBoundCount = 0
    /// Set when the box is deallocated: every observer has ended.
    @usableFromInline var isClosed = false
  }

  @usableFromInline let lock: GateLock<State>
  /// The id of the thread that holds the gate, or 0.
  @usableFromInline let gate = Atomic<Int>(0)
  /// How many writers sleep waiting for the gate.
  @usableFromInline let gateWaiters = Atomic<Int>(0)
  /// How many times the holder holds the gate (re-entrant writes from its handlers). Read and
  /// written only by the holder; the gate's atomic hand-over orders the accesses.
  @usableFromInline @exclusivity(unchecked) var gateDepth = 0
  /// The number of registered observers, read without the mutex by the write fast path (which
  /// checks the list again under the mutex).
  @usableFromInline let observerHint = Atomic<Int>(0)
  /// Compares values for boxes that skip equal writes; `nil` for boxes that report every write.
  @usableFromInline let isEqual: (@Sendable (Value, Value) -> Bool)?

  @usableFromInline
  init(_ value: Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
    lock = GateLock(State(value: value))
    self.isEqual = isEqual
  }

  // MARK: Reading and writing

  /// The current value.
  @inlinable
  func read() -> Value {
    lock.withLock { $0.value }
  }

  /// Takes the gate for the thread `me`: at once if it is free or already `me`'s (re-entrant),
  /// else after waiting for its holder to release it.
  @inlinable
  func acquireGate(_ me: Int) {
    let (exchanged, holder) = gate.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent)
    if exchanged {
      gateDepth = 1
    } else if holder == me {
      gateDepth += 1
    } else {
      waitForGate(me)
    }
  }

  /// The slow path of ``acquireGate(_:)``: sleeps on the condition until the gate is free.
  @usableFromInline
  func waitForGate(_ me: Int) {
    lock.lock()
    gateWaiters.wrappingAdd(1, ordering: .sequentiallyConsistent)
    while !gate.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged {
      lock.wait()
    }
    gateWaiters.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    lock.unlock()
    gateDepth = 1
  }

  /// Releases one hold of the gate; the last one frees it and wakes any waiting writer.
  @inlinable
  func releaseGate() {
    gateDepth -= 1
    if gateDepth > 0 { return }
    gate.store(0, ordering: .sequentiallyConsistent)
    if gateWaiters.load(ordering: .sequentiallyConsistent) > 0 { wakeGateWaiters() }
  }

  /// Wakes the writers waiting for the gate.
  @usableFromInline
  func wakeGateWaiters() {
    lock.lock()
    lock.broadcast()
    lock.unlock()
  }

  /// Replaces the value: prior callbacks, the write, post callbacks, in one turn of the gate.
  @inlinable
  func write(_ newValue: Value) {
    let me = currentThreadID
    if observerHint.load(ordering: .relaxed) == 0, isEqual == nil {
      // Fast path: nobody to tell (checked again under the mutex). The old value is released
      // after the mutex (its deinit may run arbitrary code).
      lock.lock()
      let holder = gate.load(ordering: .sequentiallyConsistent)
      if lock.value.observers.isEmpty, holder == 0 || holder == me {
        let old = lock.value.value
        lock.value.value = newValue
        lock.unlock()
        _ = old
        return
      }
      lock.unlock()
    }
    acquireGate(me)
    lock.lock()
    let old = lock.value.value
    let observers = lock.value.observers
    if lock.value.priorCount == 0, isEqual == nil {
      lock.value.value = newValue
      lock.unlock()
      notifyPost(observers, old: old, new: newValue)
      releaseGate()
      return
    }
    lock.unlock()
    defer { releaseGate() }
    if let isEqual, isEqual(old, newValue) { return }
    notifyPrior(observers, old: old)
    lock.withLock { $0.value = newValue }
    notifyPost(observers, old: old, new: newValue)
  }

  /// Changes the value in place as one write: `body` runs on a copy while the gate is held.
  @inlinable
  func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    acquireGate(currentThreadID)
    defer { releaseGate() }
    let (old, observers) = lock.withLock { ($0.value, $0.observers) }
    var new = old
    let result = try body(&new)
    if let isEqual, isEqual(old, new) { return result }
    notifyPrior(observers, old: old)
    lock.withLock { $0.value = new }
    notifyPost(observers, old: old, new: new)
    return result
  }

  // MARK: Notifying

  @inlinable
  func notifyPrior(_ observers: ContiguousArray<Observer>, old: Value) {
    for observer in observers where observer.options.contains(.prior) {
      deliver(observer.options.priorChange(old: old), to: observer)
    }
  }

  @inlinable
  func notifyPost(_ observers: ContiguousArray<Observer>, old: Value, new: Value) {
    for observer in observers {
      deliver(observer.options.postChange(old: old, new: new), to: observer)
    }
  }

  /// Runs `observer`'s handler as its delivery says, unless it has ended.
  @inlinable
  func deliver(_ change: Change<Value>, to observer: Observer) {
    if observer.ended.load(ordering: .acquiring) { return }
    if observer.isOwnerBound, observer.owner == nil {
      end(observer)
      return
    }
    if observer.delivery.isImmediate {
      observer.handler(change)
      return
    }
    observer.delivery.execute { [self] in
      if observer.ended.load(ordering: .acquiring) { return }
      if observer.isOwnerBound, observer.owner == nil {
        end(observer)
        return
      }
      observer.handler(change)
    }
  }

  // MARK: Registration

  /// Registers an observer; delivers the initial change first when asked.
  func add(
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> Subscription {
    let observer = Observer(options: options, delivery: delivery, owner: owner, handler: handler)
    let token = Subscription(source: self, node: observer)
    let wantsInitial = options.contains(.initial)
    sweepOrphans()
    if wantsInitial { acquireGate(currentThreadID) }
    lock.lock()
    observer.token = token
    lock.value.observers.append(observer)
    observerHint.wrappingAdd(1, ordering: .relaxed)
    if options.contains(.prior) { lock.value.priorCount += 1 }
    if owner != nil { lock.value.ownerBoundCount += 1 }
    let current = wantsInitial ? lock.value.value : nil
    lock.unlock()
    if let current {
      deliver(options.initialChange(current), to: observer)
      releaseGate()
    }
    return token
  }

  /// Removes observers whose owner is gone.
  ///
  /// The owners are checked outside the lock: reading a weak reference makes a strong copy, and if
  /// another thread dropped the owner's last reference meanwhile, releasing that copy would run the
  /// owner's deinit (which may cancel its token, taking this lock) under the lock.
  private func sweepOrphans() {
    let candidates = lock.withLock { state in state.ownerBoundCount > 0 ? state.observers : [] }
    let orphans = candidates.filter { $0.isOwnerBound && $0.owner == nil }
    guard !orphans.isEmpty else { return }
    let garbage = lock.withLock { _ in
      orphans.map { observer in
        observer.ended.store(true, ordering: .releasing)
        return removeLocked(observer)
      }
    }
    _ = garbage
  }

  /// What a removal lets go of, to be released after the mutex: the observer, and the token (a
  /// strong copy of the weak reference; if it were the last one, its release would run the token's
  /// deinit under the lock).
  private struct Removed {
    let observer: Observer?
    let token: Subscription?
  }

  /// Removes an ended observer and detaches its token. Only while locked.
  private func removeLocked(_ observer: Observer) -> Removed {
    let token = observer.token
    if let token {
      token.node = nil
      observer.token = nil
    }
    guard let index = lock.value.observers.firstIndex(where: { $0 === observer }) else {
      return Removed(observer: nil, token: token)
    }
    if observer.options.contains(.prior) { lock.value.priorCount -= 1 }
    if observer.isOwnerBound { lock.value.ownerBoundCount -= 1 }
    observerHint.wrappingSubtract(1, ordering: .relaxed)
    return Removed(observer: lock.value.observers.remove(at: index), token: token)
  }

  /// Ends an observer (its owner is gone) and removes it.
  @usableFromInline
  func end(_ observer: Observer) {
    observer.ended.store(true, ordering: .releasing)
    let removed = lock.withLock { _ in removeLocked(observer) }
    _ = removed
  }

  /// Ends every observer: called by the box's deinit.
  func close() {
    let observers = lock.withLock { state -> ContiguousArray<Observer> in
      state.isClosed = true
      let observers = state.observers
      state.observers = []
      state.priorCount = 0
      state.ownerBoundCount = 0
      observerHint.store(0, ordering: .relaxed)
      return observers
    }
    let tokens = lock.withLock { _ in
      observers.compactMap { observer -> Subscription? in
        observer.ended.store(true, ordering: .releasing)
        guard let token = observer.token else { return nil }
        token.node = nil
        observer.token = nil
        return token  // released after the mutex (see ``Removed``)
      }
    }
    _ = tokens
  }

  /// The number of observers that have not ended.
  var observerCount: Int {
    // The owners are read after unlocking (see ``sweepOrphans()``).
    lock.withLock { $0.observers }.lazy.filter { !$0.isEnded }.count
  }

  // MARK: SubscriptionSource

  package func cancel(_ subscription: Subscription) {
    let garbage = lock.withLock { _ -> (AnyObject?, Removed?) in
      guard let reference = subscription.node else { return (nil, nil) }
      let observer = unsafeDowncast(reference, to: Observer.self)
      observer.ended.store(true, ordering: .releasing)
      return (reference, removeLocked(observer))
    }
    _ = garbage
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    // The owner is read after unlocking (see ``sweepOrphans()``).
    let observer = lock.withLock { _ in subscription.node.map { unsafeDowncast($0, to: Observer.self) } }
    return observer?.isEnded ?? true
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {}
}
