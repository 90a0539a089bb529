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

/// An immutable list of observers that the delivering thread reads without retaining it: the
/// storage keeps it alive, and replaces it only while no thread delivers (see
/// ``ObservedStorage/deliveringThread``).
///
/// `@unchecked Sendable`: immutable.
@usableFromInline
final class ObserverList<Value: Sendable>: @unchecked Sendable {
  @usableFromInline let observers: ContiguousArray<ObservedObserver<Value>>

  @usableFromInline
  init(_ observers: ContiguousArray<ObservedObserver<Value>>) {
    self.observers = observers
  }
}

/// A change written while its box's delivery was busy, waiting for the delivering thread.
@usableFromInline
struct PendingChange<Value: Sendable> {
  /// What to deliver.
  @usableFromInline
  enum Kind {
    /// A write: its prior and post callbacks, to the observers registered before it.
    case write(old: Value, new: Value, observers: ContiguousArray<ObservedObserver<Value>>)
    /// The initial callback of a registration.
    case initial(Value, ObservedObserver<Value>)
  }

  /// What to deliver.
  @usableFromInline let kind: Kind

  @usableFromInline
  init(_ kind: Kind) {
    self.kind = kind
  }
}

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
  // thread also reads `State.list`'s object outside it, see `deliveringThread`); the rest is
  // immutable or atomic.
  @usableFromInline typealias Observer = ObservedObserver<Value>
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
    /// Live observers in registration order.
    @usableFromInline var observers: ContiguousArray<Observer> = []
    /// ``observers`` as the delivering thread reads them: replaced only while nobody delivers.
    @usableFromInline var list: ObserverList<Value>
    /// Whether ``list`` lags behind ``observers`` (they changed while a thread delivered).
    @usableFromInline var isListStale = false
    /// How many live observers asked for ``ObservationOptions/prior``.
    @usableFromInline var priorCount = 0
    /// How many live observers were registered with an owner (swept on registration).
    @usableFromInline var ownerBoundCount = 0
    /// Set when the box is deallocated: every observer has ended.
    @usableFromInline var isClosed = false
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
      list = ObserverList([])
    }

    /// Whether a change is waiting for the delivering thread.
    @inlinable var hasPending: Bool { pendingHead < pending.count }
  }

  @usableFromInline let lock: GateLock<State>
  /// The id of the delivering thread, or 0; bit 0 is set once a change has been queued for it,
  /// bit 1 once ``State/list`` is stale. Taken (0 to an id) and marked only under the mutex;
  /// released by its thread with one compare-and-swap when no bit is set (the write fast path),
  /// else under the mutex. Never 0 while ``State/pending`` holds changes. While it is not 0,
  /// ``State/list`` is not replaced: the delivering thread may be reading it without a retain.
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
    if lock.value.observers.isEmpty {
      // Nobody to tell. The old value is released after the mutex (its deinit may run any code).
      lock.unlock()
      _ = old
      return
    }
    let sequence = lock.value.sequence
    let deliverer = deliveringThread.load(ordering: .relaxed)
    if deliverer == 0 {
      // The fast path: this thread delivers at once, reading the observer list without retaining
      // it (nobody replaces it until this thread leaves). The list is current: it goes stale only
      // while a thread delivers, and that thread renews it before it leaves.
      deliveringThread.store(me, ordering: .relaxed)
      let list = Unmanaged.passUnretained(lock.value.list)
      let hasPrior = lock.value.priorCount > 0
      if hasPrior {
        lock.value.shownValue = old
        lock.value.shownBy = sequence
      }
      lock.unlock()
      list._withUnsafeGuaranteedRef { list in
        if hasPrior {
          notifyPrior(list.observers, old: old)
          lock.withLock { state in
            if state.shownBy == sequence { state.shownValue = nil }
          }
        }
        notifyPost(list.observers, old: old, new: newValue)
      }
      leave(me)
      return
    }
    let observers = lock.value.observers
    if deliverer & ~3 == me && !lock.value.hasPending {
      // A handler's write with nothing queued: delivered at once, depth-first; the prior
      // callbacks still read the old value.
      let hasPrior = lock.value.priorCount > 0
      if hasPrior {
        lock.value.shownValue = old
        lock.value.shownBy = sequence
      }
      lock.unlock()
      if hasPrior {
        notifyPrior(observers, old: old)
        lock.withLock { state in
          if state.shownBy == sequence { state.shownValue = nil }
        }
      }
      notifyPost(observers, old: old, new: newValue)
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

  // MARK: Delivering

  /// On the delivering thread, after its own change: stops being the delivering thread, or first
  /// delivers what was queued meanwhile. The common case (nothing queued) is inlined, so that it
  /// is specialised for the value type in the caller.
  @inlinable
  func leave(_ me: Int) {
    if deliveringThread.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged { return }
    deliverPendingAndLeave()
  }

  /// After queueing a change: marks it for the delivering thread (this one too, for a handler's
  /// write), or, if that thread has just left, makes this thread the delivering one; `true` then,
  /// and the caller must deliver the queue. Only while locked.
  @usableFromInline
  func markPendingLocked(_ me: Int) -> Bool {
    if markLocked(1) { return false }
    deliveringThread.store(me | 1, ordering: .relaxed)
    return true
  }

  /// Sets `bit` in ``deliveringThread`` for the delivering thread to see when it leaves; `false`
  /// if no thread is delivering. Only while locked.
  @usableFromInline
  func markLocked(_ bit: Int) -> Bool {
    var current = deliveringThread.load(ordering: .relaxed)
    while true {
      if current == 0 { return false }
      if current & bit != 0 { return true }
      let (exchanged, original) = deliveringThread.compareExchange(
        expected: current,
        desired: current | bit,
        ordering: .acquiringAndReleasing
      )
      if exchanged { return true }
      current = original
    }
  }

  /// After a change of ``State/observers``: renews ``State/list`` now if nobody delivers, else
  /// marks it stale for the delivering thread. Returns the replaced list, to be released after the
  /// mutex (it may hold the last reference to an observer and its captures). Only while locked.
  @usableFromInline
  func observersChangedLocked() -> ObserverList<Value>? {
    lock.value.isListStale = true
    if markLocked(2) { return nil }
    return renewListLocked()
  }

  /// Replaces ``State/list`` with the current observers; returns the old one, to be released after
  /// the mutex. Only while locked, and while no other thread delivers.
  @usableFromInline
  func renewListLocked() -> ObserverList<Value> {
    let old = lock.value.list
    lock.value.list = ObserverList(lock.value.observers)
    lock.value.isListStale = false
    return old
  }

  /// On the delivering thread: delivers the queued changes until none is left, then stops being
  /// the delivering thread (in the same critical section, so no change is left behind).
  @usableFromInline
  func deliverPendingAndLeave() {
    while true {
      lock.lock()
      guard let next = takePendingLocked() else {
        let replaced = lock.value.isListStale ? renewListLocked() : nil
        deliveringThread.store(0, ordering: .releasing)
        lock.unlock()
        withExtendedLifetime(replaced) {}  // released after the mutex
        return
      }
      lock.unlock()
      deliver(next)
    }
  }

  /// Removes the next queued change. Only while locked.
  @usableFromInline
  func takePendingLocked() -> Pending? {
    let head = lock.value.pendingHead
    guard head < lock.value.pending.count, let first = lock.value.pending[head] else {
      return nil
    }
    lock.value.pending[head] = nil
    if head + 1 == lock.value.pending.count {
      lock.value.pending.removeAll(keepingCapacity: lock.value.pending.count <= 64)
      lock.value.pendingHead = 0
    } else {
      lock.value.pendingHead = head + 1
    }
    return first
  }

  /// Delivers one queued change.
  @usableFromInline
  func deliver(_ pending: Pending) {
    switch pending.kind {
    case .write(let old, let new, let observers):
      notifyPrior(observers, old: old)
      notifyPost(observers, old: old, new: new)
    case .initial(let value, let observer):
      deliver(observer.options.initialChange(value), to: observer)
    }
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
    sweepOrphans()
    let me = currentThreadID
    lock.lock()
    observer.token = token
    lock.value.observers.append(observer)
    let replaced = observersChangedLocked()
    if options.contains(.prior) { lock.value.priorCount += 1 }
    if owner != nil { lock.value.ownerBoundCount += 1 }
    guard options.contains(.initial) else {
      lock.unlock()
      withExtendedLifetime(replaced) {}  // released after the mutex
      return token
    }
    // The initial callback takes its place in the write order, before every later write.
    let current = lock.value.value
    let deliverer = deliveringThread.load(ordering: .relaxed)
    if deliverer == 0 || (deliverer & ~3 == me && !lock.value.hasPending) {
      if deliverer == 0 { deliveringThread.store(me, ordering: .relaxed) }
      lock.unlock()
      deliver(options.initialChange(current), to: observer)
      if deliverer == 0 { leave(me) }
    } else {
      lock.value.pending.append(Pending(.initial(current, observer)))
      let becameDeliverer = markPendingLocked(me)
      lock.unlock()
      if becameDeliverer { deliverPendingAndLeave() }
    }
    withExtendedLifetime(replaced) {}  // released after the mutex
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
    var list: ObserverList<Value>? = nil
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
    let removed = lock.value.observers.remove(at: index)
    return Removed(observer: removed, token: token, list: observersChangedLocked())
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
    lock.lock()
    lock.value.isClosed = true
    let observers = lock.value.observers
    lock.value.observers = []
    let replaced = observersChangedLocked()
    lock.value.priorCount = 0
    lock.value.ownerBoundCount = 0
    lock.unlock()
    withExtendedLifetime(replaced) {}  // released after the mutex
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
