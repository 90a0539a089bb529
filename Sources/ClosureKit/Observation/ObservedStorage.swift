public import Synchronization

/// The part of a handler registered on an ``Observed`` that does not depend on the value type:
/// what registration, cancellation and removal touch, so that they run as concrete code in an
/// unspecialised build of the storage (they looked up generic metadata at every step, which was
/// most of their time).
///
/// `@unchecked Sendable`: `token` is read and written only under the storage's lock; everything
/// else is immutable or atomic.
@usableFromInline
class ObservedObserverCore: @unchecked Sendable {
  /// What the handler asked to be told.
  @usableFromInline final let options: ObservationOptions
  /// Where the handler runs.
  @usableFromInline final let delivery: Delivery
  /// Set once the handler has ended: cancelled, owner gone, or the box gone.
  @usableFromInline final let ended = Atomic<Bool>(false)
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline final weak let owner: (any AnyObject & Sendable)?
  /// Whether the handler was registered with an owner.
  @usableFromInline final let isOwnerBound: Bool
  /// The token that refers to this observer, unretained; read and written only under the
  /// storage's lock. Whichever ends first clears the other's reference, under that lock: a removal
  /// detaches the token (``ObserverRegistry/detachToken(of:)``), and a token's deinit, while its
  /// node is set, clears this (``ObservedStorage/subscriptionWillDeinit(_:)``), so it never
  /// refers to a freed token. Not `weak`: a weak reference gave every token a side table, and its
  /// every retain and release the runtime's slow path (a sixth of an observe + cancel).
  @usableFromInline final var token: Unmanaged<Subscription>?

  @usableFromInline
  init(options: ObservationOptions, delivery: __owned Delivery, owner: __shared (any AnyObject & Sendable)?) {
    self.options = options
    self.delivery = delivery
    self.owner = owner
    self.isOwnerBound = owner != nil
  }

  /// Whether the handler will not run again.
  @inlinable final var isEnded: Bool {
    ended.load(ordering: .acquiring) || (isOwnerBound && owner == nil)
  }
}

/// One handler registered on an ``Observed``.
///
/// `@unchecked Sendable`: as ``ObservedObserverCore``; the handler is immutable.
@usableFromInline
final class ObservedObserver<Value: Sendable>: ObservedObserverCore, @unchecked Sendable {
  /// The handler (owner-bound handlers are wrapped to hold the owner weakly).
  @usableFromInline let handler: @Sendable (Change<Value>) -> Void

  @usableFromInline
  init(
    options: ObservationOptions,
    delivery: __owned Delivery,
    owner: __shared (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void
  ) {
    self.handler = handler
    super.init(options: options, delivery: delivery, owner: owner)
  }
}

/// An immutable copy of the observers of an ``ObservedStorage``, which the delivering thread reads
/// without retaining it (see ``ObservedStorage/deliveringThread``).
///
/// `@unchecked Sendable`: immutable.
@usableFromInline
final class ObserverList: @unchecked Sendable {
  /// Every one an ``ObservedObserver`` of the storage's value type.
  @usableFromInline let observers: ContiguousArray<ObservedObserverCore>

  @usableFromInline
  init(_ observers: ContiguousArray<ObservedObserverCore>) {
    self.observers = observers
  }
}

/// The observers of an ``ObservedStorage`` and what is counted of them: not generic (see
/// ``ObservedObserverCore``), and guarded by the storage's mutex, which it has no reference to.
///
/// The write path reads ``list``, a copy made by the first write after a change and kept until
/// the next change. A change drops it first, so that the array it shared with ``observers`` is
/// changed in place: registration and cancellation copy no array and allocate no list (they did,
/// both, and it was most of their cost).
///
/// `@unchecked Sendable`: every property is read and written only under the storage's mutex (the
/// delivering thread also reads ``list``'s object outside it, see
/// ``ObservedStorage/deliveringThread``).
@usableFromInline
final class ObserverRegistry: @unchecked Sendable {
  /// Live observers in registration order.
  @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<ObservedObserverCore> = []
  /// ``observers`` as the write path reads them; `nil` after a change until the next write.
  @usableFromInline @exclusivity(unchecked) var list: ObserverList?
  /// Lists dropped while a thread delivered, which it may still be reading; released when it
  /// leaves.
  @usableFromInline @exclusivity(unchecked) var retired: [ObserverList] = []
  /// How many live observers asked for ``ObservationOptions/prior``.
  @usableFromInline @exclusivity(unchecked) var priorCount = 0
  /// How many live observers were registered with an owner (swept on registration).
  @usableFromInline @exclusivity(unchecked) var ownerBoundCount = 0

  @usableFromInline init() {}

  /// ``list``, made now if a change dropped it.
  @inlinable
  func currentList() -> ObserverList {
    if let list { return list }
    return makeList()
  }

  @usableFromInline
  func makeList() -> ObserverList {
    let made = ObserverList(observers)
    list = made
    return made
  }

  /// Before a change of ``observers``: lets go of ``list``, into ``retired`` when `isRead` (the
  /// delivering thread may be reading it without a retain). Otherwise it is released at once: it
  /// shares its array with ``observers``, so this is never the last reference to an observer.
  @usableFromInline
  func dropList(isRead: Bool) {
    guard let dropped = list else { return }
    list = nil
    if isRead { retired.append(dropped) }
  }

  /// Adds `observer` with its token. Returns whether owner-bound observers should be swept.
  @usableFromInline
  func append(_ observer: __owned ObservedObserverCore, token: Subscription) -> Bool {
    observer.token = Unmanaged.passUnretained(token)
    if observer.options.contains(.prior) { priorCount += 1 }
    if observer.isOwnerBound { ownerBoundCount += 1 }
    observers.append(observer)
    return ownerBoundCount > 0
  }

  /// The position of `observer` among the live observers, if it is one.
  @usableFromInline
  func index(of observer: ObservedObserverCore) -> Int? {
    observers.withUnsafeBufferPointer { observers -> Int? in
      for index in observers.indices where observers[index] === observer { return index }
      return nil
    }
  }

  /// Removes the live observer at `index` and returns it, to be released after the mutex.
  @usableFromInline
  func remove(at index: Int) -> ObservedObserverCore {
    let observer = observers.remove(at: index)
    if observer.options.contains(.prior) { priorCount -= 1 }
    if observer.isOwnerBound { ownerBoundCount -= 1 }
    return observer
  }

  /// Removes every observer and returns them, to be released after the mutex.
  @usableFromInline
  func removeAll() -> ContiguousArray<ObservedObserverCore> {
    let removed = observers
    observers = []
    priorCount = 0
    ownerBoundCount = 0
    return removed
  }

  /// Makes `observer`'s token let go of it. The token is used without a retain: its deinit may be
  /// running on another thread, waiting for the lock in ``ObservedStorage/subscriptionWillDeinit(_:)``
  /// (so its memory stays valid), or, once this clears its node, may finish and free it at once.
  @usableFromInline
  func detachToken(of observer: ObservedObserverCore) {
    guard let token = observer.token else { return }
    observer.token = nil
    token._withUnsafeGuaranteedRef { $0.node = nil }
  }
}

/// A change written while its box's delivery was busy, waiting for the delivering thread.
@usableFromInline
struct PendingChange<Value: Sendable> {
  /// What to deliver.
  @usableFromInline
  enum Kind {
    /// A write: its prior and post callbacks, to the observers registered before it.
    case write(old: Value, new: Value, observers: ContiguousArray<ObservedObserverCore>)
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
  // thread also reads `registry.list`'s object outside it, see `deliveringThread`); the rest is
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
      _ = old
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
      let hasPrior = registry.priorCount > 0
      if hasPrior {
        lock.value.shownValue = old
        lock.value.shownBy = sequence
      }
      lock.unlock()
      list._withUnsafeGuaranteedRef { list in
        list.observers.withUnsafeBufferPointer { observers in
          if hasPrior {
            notifyPrior(observers, old: old)
            lock.withLock { state in
              if state.shownBy == sequence { state.shownValue = nil }
            }
          }
          notifyPost(observers, old: old, new: newValue)
        }
      }
      leave(me)
      return
    }
    let observers = registry.observers
    if deliverer & ~3 == me && !lock.value.hasPending {
      // A handler's write with nothing queued: delivered at once, depth-first; the prior
      // callbacks still read the old value.
      let hasPrior = registry.priorCount > 0
      if hasPrior {
        lock.value.shownValue = old
        lock.value.shownBy = sequence
      }
      lock.unlock()
      observers.withUnsafeBufferPointer { observers in
        if hasPrior {
          notifyPrior(observers, old: old)
          lock.withLock { state in
            if state.shownBy == sequence { state.shownValue = nil }
          }
        }
        notifyPost(observers, old: old, new: newValue)
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

  /// Before a change of the observers: drops ``ObserverRegistry/list``. If a thread delivers and
  /// may be reading it without a retain (bit 1 clear), marks bit 1 and keeps the list until that
  /// thread leaves. (With bit 1 set there is no list: only a write that finds nobody delivering
  /// makes one.) Only while locked.
  @usableFromInline
  func willChangeObserversLocked() {
    // `markLocked` is `false` if the delivering thread has just left (it leaves without the
    // mutex): then nothing reads the list any more.
    let current = deliveringThread.load(ordering: .relaxed)
    registry.dropList(isRead: current != 0 && current & 2 == 0 && markLocked(2))
  }

  /// On the delivering thread: delivers the queued changes until none is left, then stops being
  /// the delivering thread (in the same critical section, so no change is left behind).
  @usableFromInline
  func deliverPendingAndLeave() {
    while true {
      lock.lock()
      guard let next = takePendingLocked() else {
        let retired = registry.retired
        if !retired.isEmpty { registry.retired = [] }
        deliveringThread.store(0, ordering: .releasing)
        lock.unlock()
        withExtendedLifetime(retired) {}  // released after the mutex
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
      observers.withUnsafeBufferPointer { observers in
        notifyPrior(observers, old: old)
        notifyPost(observers, old: old, new: new)
      }
    case .initial(let value, let observer):
      deliver(observer.options.initialChange(value), to: observer)
    }
  }

  // MARK: Notifying

  @inlinable
  func notifyPrior(_ observers: UnsafeBufferPointer<ObservedObserverCore>, old: Value) {
    forEachObserver(in: observers) { observer in
      if observer.options.contains(.prior) { deliver(observer.options.priorChange(old: old), to: observer) }
    }
  }

  @inlinable
  func notifyPost(_ observers: UnsafeBufferPointer<ObservedObserverCore>, old: Value, new: Value) {
    forEachObserver(in: observers) { observer in
      deliver(observer.options.postChange(old: old, new: new), to: observer)
    }
  }

  /// Calls `body` with each observer of `observers`, unretained (the array that the buffer belongs
  /// to keeps each alive) and as the value type's observer: no reference counting per observer.
  @inlinable
  func forEachObserver(in observers: UnsafeBufferPointer<ObservedObserverCore>, _ body: (Observer) -> Void) {
    guard let base = observers.baseAddress else { return }
    for index in 0..<observers.count {
      UnsafeRawPointer(base + index).load(as: Unmanaged<Observer>.self)._withUnsafeGuaranteedRef(body)
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

  /// A token for `observer`.
  @usableFromInline
  func makeToken(for observer: ObservedObserverCore) -> Subscription {
    Subscription(source: self, node: observer)
  }

  /// Registers an observer; delivers the initial change first when asked. Inlinable, so that a
  /// client allocates the observer of its value type without looking up the type's metadata.
  @inlinable
  func add(
    options: ObservationOptions,
    delivery: Delivery,
    owner: (any AnyObject & Sendable)?,
    handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> Subscription {
    let observer = Observer(options: options, delivery: delivery, owner: owner, handler: handler)
    let token = makeToken(for: observer)
    let me = currentThreadID
    lock.lock()
    willChangeObserversLocked()
    let isSweepDue = registry.append(observer, token: token)
    guard options.contains(.initial) else {
      lock.unlock()
      if isSweepDue { sweepOrphans() }
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
    if isSweepDue { sweepOrphans() }
    return token
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
    let orphans = candidates.filter { $0.isOwnerBound && $0.owner == nil }
    guard !orphans.isEmpty else { return }
    lock.lock()
    let garbage = orphans.map { observer in
      observer.ended.store(true, ordering: .releasing)
      return removeLocked(observer)
    }
    lock.unlock()
    withExtendedLifetime(garbage) {}  // released after the mutex
  }

  /// Removes an ended observer and detaches its token. Returns the observer if it was live, to be
  /// released after the mutex (it may hold the last reference to its handler's captures). Only
  /// while locked.
  @usableFromInline
  func removeLocked(_ observer: ObservedObserverCore) -> ObservedObserverCore? {
    registry.detachToken(of: observer)
    guard let index = registry.index(of: observer) else { return nil }
    willChangeObserversLocked()
    return registry.remove(at: index)
  }

  /// Ends an observer (its owner is gone) and removes it.
  @usableFromInline
  func end(_ observer: ObservedObserverCore) {
    observer.ended.store(true, ordering: .releasing)
    lock.lock()
    let removed = removeLocked(observer)
    lock.unlock()
    withExtendedLifetime(removed) {}  // released after the mutex
  }

  /// Ends every observer: called by the box's deinit.
  func close() {
    lock.lock()
    willChangeObserversLocked()
    let observers = registry.removeAll()
    for observer in observers {
      observer.ended.store(true, ordering: .releasing)
      registry.detachToken(of: observer)
    }
    lock.unlock()
    withExtendedLifetime(observers) {}  // released after the mutex
  }

  /// The number of observers that have not ended.
  var observerCount: Int {
    // The owners are read after unlocking (see ``sweepOrphans()``).
    lock.lock()
    let observers = registry.observers
    lock.unlock()
    return observers.lazy.filter { !$0.isEnded }.count
  }

  // MARK: SubscriptionSource

  package func cancel(_ subscription: Subscription) {
    lock.lock()
    guard let reference = subscription.node else {
      lock.unlock()
      return
    }
    let observer = unsafeDowncast(reference, to: ObservedObserverCore.self)
    observer.ended.store(true, ordering: .releasing)
    let removed = removeLocked(observer)
    lock.unlock()
    withExtendedLifetime((reference, removed)) {}  // released after the mutex
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    // The owner is read after unlocking (see ``sweepOrphans()``).
    lock.lock()
    let observer = subscription.node.map { unsafeDowncast($0, to: ObservedObserverCore.self) }
    lock.unlock()
    return observer?.isEnded ?? true
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {
    // The token goes first: its observer must not refer to it any more.
    lock.lock()
    if let node = subscription.unretainedNode {
      node._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ObservedObserverCore.self).token = nil }
    }
    lock.unlock()
  }
}
