public import Synchronization

/// The state and observer list behind an ``Observed``, separate from it so that tokens (which hold
/// their source strongly) never keep the box alive; the box closes it from its deinit.
///
/// Every write is ordered and stored under the mutex. Its callbacks are delivered by one thread at
/// a time, the *delivering thread*: a writer that finds nobody delivering becomes it, delivers its
/// own change, then every change queued meanwhile, and leaves; a writer that finds another thread
/// delivering appends its change to the queue and returns at once. So observers see the changes in
/// write order, one write's callbacks are never interleaved with another's, and no writer ever
/// waits for another writer's handlers (two boxes bound both ways cannot deadlock). A write made by
/// a handler on the delivering thread is delivered at once (depth-first) when nothing is queued,
/// else queued behind the changes before it. Handlers run with the mutex released and may read,
/// write, add and cancel.
///
/// `modify` is the one writer that waits: other threads' writes wait while its body runs on a copy
/// (never while handlers run), so the read-modify-write is atomic.
@usableFromInline
final class ObservedStorage<Value: Sendable>: SubscriptionSource, @unchecked Sendable {
  // @unchecked Sendable: the state is read and written only under the mutex (the delivering
  // thread also reads `registry.list`'s object outside it, see `deliveringThread`); the rest is
  // immutable or atomic.
  @usableFromInline typealias Handler = ObservedHandler<Value>
  @usableFromInline typealias Pending = PendingChange<Value>

  @usableFromInline
  struct State {
    /// The value of the last write.
    @usableFromInline var value: Value
    /// While the prior callbacks of a write delivered at once are running: the value readers see
    /// (the old one). `nil` otherwise, and as soon as another write is stored.
    @usableFromInline var shownValue: Value?
    /// The write that set ``shownValue``.
    @usableFromInline var shownBy = 0
    /// The number of writes so far (a box that skips equal writes compares outside the mutex and
    /// checks it to see that no write came between).
    @usableFromInline var sequence = 0
    /// Changes waiting for the delivering thread, in write order, from ``pendingHead`` on.
    @usableFromInline var pending: ContiguousArray<Pending?> = []
    /// The index of the next change to deliver in ``pending``.
    @usableFromInline var pendingHead = 0
    /// The id of the thread running a ``ObservedStorage/modify(_:)`` body, or 0.
    @usableFromInline var modifier = 0
    /// How many `modify` bodies the ``modifier`` thread is running (nested ones included).
    @usableFromInline var modifyDepth = 0
    /// How many writers sleep until the ``modifier`` is done.
    @usableFromInline var modifyWaiters = 0

    @usableFromInline
    init(value: Value) {
      self.value = value
    }

    /// Whether a change is waiting for the delivering thread.
    @inlinable var hasPending: Bool { pendingHead < pending.count }
  }

  @usableFromInline let lock: GateLock<State>
  /// The observers, guarded by ``lock``'s mutex.
  @usableFromInline let registry = ObserverRegistry()
  /// The id of the delivering thread, or 0; bit 0 is set once a change has been queued for it,
  /// bit 1 once ``ObserverRegistry/list`` has been dropped while it delivered. Taken (0 to an id)
  /// and marked only under the mutex; released by its thread with one compare-and-swap when no bit
  /// is set (the write fast path), else under the mutex. Never 0 while ``State/pending`` holds
  /// changes. While it is not 0 and bit 1 is clear, the delivering thread may be reading
  /// ``ObserverRegistry/list`` without a retain, so a change keeps that list alive until it leaves.
  @usableFromInline let deliveringThread = Atomic<Int>(0)
  /// Compares values for boxes that skip equal writes; `nil` for boxes that report every write.
  @usableFromInline let isEqual: (@Sendable (Value, Value) -> Bool)?

  @usableFromInline
  init(_ value: Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
    lock = GateLock(State(value: value))
    self.isEqual = isEqual
  }

  // MARK: Reading and writing

  /// The current value (the old one during the prior callbacks of a write delivered at once).
  @inlinable
  func read() -> Value {
    lock.withLock { $0.shownValue ?? $0.value }
  }

  /// Replaces the value: one change, delivered by this thread now or by the delivering thread.
  @inlinable
  func write(_ newValue: Value) {
    let me = currentThreadID
    lock.lock()
    if lock.value.modifier != 0, lock.value.modifier != me { waitForModifier(me) }
    if isEqual != nil {
      guard lockedDiffers(newValue, me) else { return }
    }
    commit(newValue, me, endingModify: false)
  }

  /// For a box that skips equal writes: whether `newValue` differs from the current value, compared
  /// outside the mutex (`==` is the user's code). Called and returns with the mutex held when `true`;
  /// with the mutex released when `false`.
  @usableFromInline
  func lockedDiffers(_ newValue: Value, _ me: Int) -> Bool {
    guard let isEqual else { return true }
    while true {
      let (current, sequence) = (lock.value.value, lock.value.sequence)
      lock.unlock()
      if isEqual(current, newValue) { return false }
      lock.lock()
      if lock.value.modifier != 0, lock.value.modifier != me { waitForModifier(me) }
      if lock.value.sequence == sequence { return true }
    }
  }

  /// Stores `newValue` as the next write and delivers or queues its change. Called with the mutex
  /// held; returns with it released. `endingModify` also ends this thread's `modify` body.
  @inlinable
  func commit(_ newValue: Value, _ me: Int, endingModify: Bool) {
    if endingModify { endModifyLocked() }
    let old = lock.value.value
    lock.value.value = newValue
    lock.value.shownValue = nil
    lock.value.sequence &+= 1
    if registry.observers.isEmpty {
      // Nobody to tell. The old value is released after the mutex (its deinit may run any code).
      lock.unlock()
      withExtendedLifetime(old) {}
      return
    }
    let sequence = lock.value.sequence
    let deliverer = deliveringThread.load(ordering: .relaxed)
    if deliverer == 0 {
      // The fast path: this thread delivers at once, reading the observer list without retaining
      // it (a change while this thread delivers keeps the list alive until it leaves; see
      // `willChangeObserversLocked()`). The first write after a change makes the list.
      deliveringThread.store(me, ordering: .relaxed)
      let list = Unmanaged.passUnretained(registry.currentList())
      let hasPrior = showPriorLocked(old, sequence)
      lock.unlock()
      list._withUnsafeGuaranteedRef { list in
        list.observers.withUnsafeBufferPointer { observers in
          notifyNow(observers, old: old, new: newValue, hasPrior: hasPrior, sequence: sequence)
        }
      }
      leave(me)
      return
    }
    let observers = registry.observers
    if deliverer & ~3 == me && !lock.value.hasPending {
      // A handler's write with nothing queued: delivered at once, depth-first; the prior
      // callbacks still read the old value.
      let hasPrior = showPriorLocked(old, sequence)
      lock.unlock()
      observers.withUnsafeBufferPointer { observers in
        notifyNow(observers, old: old, new: newValue, hasPrior: hasPrior, sequence: sequence)
      }
      return
    }
    lock.value.pending.append(Pending(.write(old: old, new: newValue, observers: observers)))
    let becameDeliverer = markPendingLocked(me)
    lock.unlock()
    if becameDeliverer { deliverPendingAndLeave() }
  }

  /// Changes the value in place as one write: `body` runs on a copy while other threads' writes
  /// wait.
  @inlinable
  func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    let me = currentThreadID
    lock.lock()
    beginModifyLocked(me)
    var new = lock.value.value
    lock.unlock()
    let result: Result
    do {
      result = try body(&new)
    } catch {
      lock.withLock { _ in endModifyLocked() }
      throw error
    }
    lock.lock()
    if let isEqual {
      // Only this thread writes until the body ends, so the value compared is still current.
      let current = lock.value.value
      lock.unlock()
      let equal = isEqual(current, new)
      lock.lock()
      if equal {
        endModifyLocked()
        lock.unlock()
        return result
      }
    }
    commit(new, me, endingModify: true)
    return result
  }

  // MARK: The modify gate

  /// Waits until no other thread runs a `modify` body. Only while locked.
  @usableFromInline
  func waitForModifier(_ me: Int) {
    lock.value.modifyWaiters += 1
    while lock.value.modifier != 0, lock.value.modifier != me { lock.wait() }
    lock.value.modifyWaiters -= 1
  }

  /// Starts a `modify` body on this thread, after any other thread's. Only while locked.
  @inlinable
  func beginModifyLocked(_ me: Int) {
    if lock.value.modifier != 0, lock.value.modifier != me { waitForModifier(me) }
    lock.value.modifier = me
    lock.value.modifyDepth += 1
  }

  /// Ends a `modify` body; the outermost one wakes the waiting writers. Only while locked.
  @inlinable
  func endModifyLocked() {
    lock.value.modifyDepth -= 1
    guard lock.value.modifyDepth == 0 else { return }
    lock.value.modifier = 0
    if lock.value.modifyWaiters > 0 { lock.broadcast() }
  }

  // MARK: Registration

  /// Registers an observer; delivers the initial change first when asked. Inlinable, so that a
  /// client allocates the observer of its value type without looking up the type's metadata.
  @inlinable
  func add(
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> Subscription {
    let observer = makeObserver(options: options, delivery: delivery, owner: owner)
    let box = Handler(handler)
    // A second reference only for the initial callback: the entry takes the first (kept in a local
    // for later, it would cost a retain and a release of the observer and the handler).
    let initial: Handler? = options.contains(.initial) ? box : nil
    lock.lock()
    willChangeObserversLocked()
    let isSweepDue = registry.append(
      ObserverEntry(observer: observer, handler: consume box),
      isPrior: options.contains(.prior),
      isOwnerBound: owner != nil
    )
    guard let initial else {
      lock.unlock()
      if isSweepDue { sweepOrphans() }
      return observer
    }
    // The initial callback takes its place in the write order, before every later write.
    let me = currentThreadID
    let current = lock.value.value
    let deliverer = deliveringThread.load(ordering: .relaxed)
    if deliverer == 0 || (deliverer & ~3 == me && !lock.value.hasPending) {
      if deliverer == 0 { deliveringThread.store(me, ordering: .relaxed) }
      lock.unlock()
      deliver(options.initialChange(current), to: observer, handler: initial)
      if deliverer == 0 { leave(me) }
    } else {
      lock.value.pending.append(Pending(.initial(current, ObserverEntry(observer: observer, handler: initial))))
      let becameDeliverer = markPendingLocked(me)
      lock.unlock()
      if becameDeliverer { deliverPendingAndLeave() }
    }
    if isSweepDue { sweepOrphans() }
    return observer
  }

  /// A new observer, its token.
  @usableFromInline
  func makeObserver(
    options: ObservationOptions,
    delivery: __owned Delivery,
    owner: __shared (any AnyObject & Sendable)?
  ) -> ObservedObserver {
    guard let owner else { return ObservedObserver(source: self, options: options, delivery: delivery) }
    return OwnedObservedObserver(source: self, options: options, delivery: delivery, owner: owner)
  }

  /// Removes observers whose owner is gone.
  ///
  /// The owners are checked outside the lock: reading a weak reference makes a strong copy, and if
  /// another thread dropped the owner's last reference meanwhile, releasing that copy would run the
  /// owner's deinit (which may cancel its token, taking this lock) under the lock.
  @usableFromInline
  func sweepOrphans() {
    lock.lock()
    let candidates = registry.ownerBoundCount > 0 ? registry.observers : []
    lock.unlock()
    let orphans = candidates.filter(\.observer.isOrphaned)
    guard !orphans.isEmpty else { return }
    lock.lock()
    let garbage = orphans.map { orphan in
      _ = orphan.observer.claimEndLocked()
      return removeLocked(orphan.observer)
    }
    lock.unlock()
    withExtendedLifetime((candidates, garbage)) {}  // released after the mutex
  }

  /// Removes an ended observer. Returns its entry if it was live, to be released after the mutex
  /// (it may hold the last reference to its handler's captures). Only while locked.
  @usableFromInline
  func removeLocked(_ observer: ObservedObserver) -> ObserverEntry? {
    guard let index = registry.index(of: observer) else { return nil }
    willChangeObserversLocked()
    return registry.remove(at: index)
  }

  /// Ends an observer (its owner is gone) and removes it.
  @usableFromInline
  func end(_ observer: ObservedObserver) {
    lock.lock()
    // Whoever ended it first removes it (a cancel, the sweep, `close()`).
    guard observer.claimEndLocked() else { return lock.unlock() }
    let removed = removeLocked(observer)
    lock.unlock()
    withExtendedLifetime(removed) {}  // released after the mutex
  }

  /// Ends every observer: called by the box's deinit.
  func close() {
    lock.lock()
    willChangeObserversLocked()
    let observers = registry.removeAll()
    for entry in observers { _ = entry.observer.claimEndLocked() }
    lock.unlock()
    withExtendedLifetime(observers) {}  // released after the mutex
  }

  /// The number of observers that have not ended.
  var observerCount: Int {
    // The owners are read after unlocking (see ``sweepOrphans()``).
    lock.lock()
    let observers = registry.observers
    lock.unlock()
    return observers.lazy.filter { !$0.observer.isEnded }.count
  }

  // MARK: SubscriptionSource

  package func cancel(_ subscription: Subscription) {
    let observer = subscription as! ObservedObserver  // checked: every token of this storage is one
    lock.lock()
    // Already ended: whoever ended it removes it (the sweep, a delivery that found the owner gone,
    // `close()`).
    guard observer.claimEndLocked() else { return lock.unlock() }
    let removed = removeLocked(observer)
    lock.unlock()
    withExtendedLifetime(removed) {}  // released after the mutex
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    (subscription as! ObservedObserver).isEnded  // checked: every token of this storage is one
  }
}
