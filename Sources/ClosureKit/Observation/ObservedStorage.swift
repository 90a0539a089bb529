public import Synchronization

/// One handler registered on an ``Observed``, and the token of the registration, which it is (a
/// ``Subscription`` in state mode, like an event's ``HandlerNodeCore``): no token object of its
/// own, and no reference between the two to clear. Not generic, so that registration, cancellation
/// and removal run as concrete code in an unspecialised build of the storage (they looked up
/// generic metadata at every step, which was most of their time).
///
/// The handler itself is not here but in an ``ObservedHandler`` that the registry's entries hold
/// (``ObserverEntry``), so that what it captured is released when it leaves the registry (and every
/// list a write reads), even while its token is kept.
///
/// `@unchecked Sendable`: everything is immutable or atomic (the state bits of `word`).
@usableFromInline
class ObservedObserver: Subscription, @unchecked Sendable {
  /// What the handler asked to be told.
  @usableFromInline final let options: ObservationOptions
  /// Where the handler runs.
  @usableFromInline final let delivery: Delivery

  init(source: any SubscriptionSource, options: ObservationOptions, delivery: __owned Delivery, flags: Int = 0) {
    self.options = options
    self.delivery = delivery
    super.init(source: source, word: NodeBits.isState | flags)
  }

  /// Whether the handler was registered with an owner (an ``OwnedObservedObserver``).
  @inlinable final var isOwnerBound: Bool {
    word.load(ordering: .relaxed) & NodeBits.ownerBound != 0
  }

  /// Whether the handler has been ended: cancelled, owner found gone, or the box gone.
  @inlinable final var hasEnded: Bool {
    word.load(ordering: .acquiring) & NodeBits.ended != 0
  }

  /// Whether the handler's owner has been deallocated.
  @inlinable final var isOrphaned: Bool {
    isOwnerBound && isOwnerGone
  }

  /// Whether the handler will not run again.
  @inlinable final var isEnded: Bool {
    hasEnded || isOrphaned
  }

  /// Sets the ``NodeBits/ended`` bit; `true` for the one caller that set it. Only under the
  /// storage's mutex: every writer of the state word holds it (the bit is its only change after
  /// registration), so a load and a store do what an atomic read-modify-write would, for less.
  /// Readers outside the mutex (a delivery, `isCancelled`) load the word atomically.
  @inlinable final func claimEndLocked() -> Bool {
    let current = word.load(ordering: .relaxed)
    guard current & NodeBits.ended == 0 else { return false }
    word.store(current | NodeBits.ended, ordering: .releasing)
    return true
  }

  /// Whether the owner has been deallocated; `false` for an observer without one.
  @usableFromInline
  var isOwnerGone: Bool { false }
}

/// A handler registered on an ``Observed`` with an owner: the owner's weak reference, which an
/// observer without one does not make.
///
/// `@unchecked Sendable`: `owner` is a weak reference, which the runtime reads and clears
/// atomically; the rest as ``ObservedObserver``.
@usableFromInline
final class OwnedObservedObserver: ObservedObserver, @unchecked Sendable {
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline weak let owner: (any AnyObject & Sendable)?

  init(
    source: any SubscriptionSource,
    options: ObservationOptions,
    delivery: __owned Delivery,
    owner: __shared any AnyObject & Sendable
  ) {
    self.owner = owner
    super.init(source: source, options: options, delivery: delivery, flags: NodeBits.ownerBound)
  }

  @usableFromInline
  override var isOwnerGone: Bool { owner == nil }
}

/// The handler of a registration on an ``Observed``, in an object of its own: a write calls it as
/// a constant of a class, in place, where a closure read from an array's memory is copied (a retain
/// and a release of its captures per call, a third of a write to one observer).
///
/// Not generic, so that the registry's entries are not; every one is an ``ObservedHandler`` of the
/// storage's value type. `@unchecked Sendable`: immutable.
@usableFromInline
class ObservedHandlerCore: @unchecked Sendable {
  @usableFromInline init() {}
}

/// The handler of a registration on an ``Observed<Value>``.
///
/// `@unchecked Sendable`: immutable, and the closure is `@Sendable`.
@usableFromInline
final class ObservedHandler<Value: Sendable>: ObservedHandlerCore, @unchecked Sendable {
  /// The user's handler (owner-bound handlers are wrapped to hold the owner weakly).
  @usableFromInline let call: @Sendable (Change<Value>) -> Void

  @inlinable
  init(_ call: @escaping @Sendable (Change<Value>) -> Void) {
    self.call = call
  }
}

/// A registered observer with its handler, as the registry and the lists keep them.
@usableFromInline
struct ObserverEntry {
  /// The observer, which is also the registration's token.
  @usableFromInline let observer: ObservedObserver
  /// The handler.
  @usableFromInline let handler: ObservedHandlerCore

  @inlinable
  init(observer: ObservedObserver, handler: ObservedHandlerCore) {
    self.observer = observer
    self.handler = handler
  }

  /// The observer of the entry at `entry`, unretained: valid while the entries that hold it live.
  @inlinable
  static func observer(at entry: UnsafePointer<ObserverEntry>) -> Unmanaged<ObservedObserver> {
    UnsafeRawPointer(entry).load(as: Unmanaged<ObservedObserver>.self)
  }

  /// The handler of the entry at `entry`, unretained, likewise. Swift lays out a struct's stored
  /// properties in declaration order, so the handler follows the observer (see ``HandlerEntry``).
  @inlinable
  static func handler(at entry: UnsafePointer<ObserverEntry>) -> Unmanaged<ObservedHandlerCore> {
    (UnsafeRawPointer(entry) + MemoryLayout<ObservedObserver>.stride).load(as: Unmanaged<ObservedHandlerCore>.self)
  }
}

/// An immutable copy of the observers of an ``ObservedStorage``, which the delivering thread reads
/// without retaining it (see ``ObservedStorage/deliveringThread``).
///
/// `@unchecked Sendable`: immutable.
@usableFromInline
final class ObserverList: @unchecked Sendable {
  /// The observers, each with its handler of the storage's value type.
  @usableFromInline let observers: ContiguousArray<ObserverEntry>

  @usableFromInline
  init(_ observers: ContiguousArray<ObserverEntry>) {
    self.observers = observers
  }
}

/// The observers of an ``ObservedStorage`` and what is counted of them: not generic (see
/// ``ObservedObserver``), and guarded by the storage's mutex, which it has no reference to.
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
  @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<ObserverEntry> = []
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

  /// Adds an observer with its handler. Returns whether owner-bound observers should be swept:
  /// never when the only one is the observer just added, whose caller holds its owner.
  @usableFromInline
  func append(_ entry: __owned ObserverEntry, isPrior: Bool, isOwnerBound: Bool) -> Bool {
    // The caller says what the counts need: reading it from the entry's observer here cost a
    // retain and a release of the observer.
    if isPrior { priorCount += 1 }
    if isOwnerBound { ownerBoundCount += 1 }
    observers.append(entry)
    return ownerBoundCount > (isOwnerBound ? 1 : 0)
  }

  /// The position of `observer` among the live observers, if it is one. Searched from the newest,
  /// the one most often cancelled (a screen that binds and unbinds).
  @usableFromInline
  func index(of observer: ObservedObserver) -> Int? {
    let target = Unmanaged.passUnretained(observer).toOpaque()
    return observers.withUnsafeBufferPointer { observers -> Int? in
      guard let base = observers.baseAddress else { return nil }
      var index = observers.count
      while index > 0 {
        index -= 1
        if ObserverEntry.observer(at: base + index).toOpaque() == target { return index }
      }
      return nil
    }
  }

  /// Removes the live observer at `index` and returns its entry, to be released after the mutex.
  @usableFromInline
  func remove(at index: Int) -> ObserverEntry {
    // The newest is the one most often cancelled: `removeLast()` moves nothing.
    let entry = index == observers.count - 1 ? observers.removeLast() : observers.remove(at: index)
    if entry.observer.options.contains(.prior) { priorCount -= 1 }
    if entry.observer.isOwnerBound { ownerBoundCount -= 1 }
    return entry
  }

  /// Removes every observer and returns the entries, to be released after the mutex.
  @usableFromInline
  func removeAll() -> ContiguousArray<ObserverEntry> {
    let removed = observers
    observers = []
    priorCount = 0
    ownerBoundCount = 0
    return removed
  }
}

/// A change written while its box's delivery was busy, waiting for the delivering thread.
@usableFromInline
struct PendingChange<Value: Sendable> {
  /// What to deliver.
  @usableFromInline
  enum Kind {
    /// A write: its prior and post callbacks, to the observers registered before it.
    case write(old: Value, new: Value, observers: ContiguousArray<ObserverEntry>)
    /// The initial callback of a registration.
    case initial(Value, ObserverEntry)
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
    // No list (no write since the last change): nothing to drop, no thread to tell.
    guard registry.list != nil else { return }
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
    case .initial(let value, let entry):
      deliver(
        entry.observer.options.initialChange(value),
        to: entry.observer,
        handler: unsafeDowncast(entry.handler, to: Handler.self)
      )
    }
  }

  // MARK: Notifying

  @inlinable
  func notifyPrior(_ observers: UnsafeBufferPointer<ObserverEntry>, old: Value) {
    forEachObserver(in: observers) { observer, handler in
      if observer.options.contains(.prior) {
        deliver(observer.options.priorChange(old: old), to: observer, handler: handler)
      }
    }
  }

  @inlinable
  func notifyPost(_ observers: UnsafeBufferPointer<ObserverEntry>, old: Value, new: Value) {
    forEachObserver(in: observers) { observer, handler in
      deliver(observer.options.postChange(old: old, new: new), to: observer, handler: handler)
    }
  }

  /// Calls `body` with each observer of `observers` and its handler, unretained (the array that
  /// the buffer belongs to keeps each alive) and as the value type's handler: no reference
  /// counting per observer.
  @inlinable
  func forEachObserver(
    in observers: UnsafeBufferPointer<ObserverEntry>,
    _ body: (ObservedObserver, Handler) -> Void
  ) {
    guard let base = observers.baseAddress else { return }
    for index in 0..<observers.count {
      let entry = base + index
      ObserverEntry.observer(at: entry)._withUnsafeGuaranteedRef { observer in
        ObserverEntry.handler(at: entry)._withUnsafeGuaranteedRef { handler in
          body(observer, unsafeDowncast(handler, to: Handler.self))
        }
      }
    }
  }

  /// Runs `observer`'s handler as its delivery says, unless it has ended.
  @inlinable
  func deliver(_ change: Change<Value>, to observer: ObservedObserver, handler: Handler) {
    if observer.hasEnded { return }
    if observer.isOrphaned {
      end(observer)
      return
    }
    if observer.delivery.isImmediate {
      handler.call(change)
      return
    }
    // The job keeps its own reference to the handler: a delivery queued before a cancel keeps the
    // captures until it is dropped, unrun.
    observer.delivery.execute { [self] in
      if observer.hasEnded { return }
      if observer.isOrphaned {
        end(observer)
        return
      }
      handler.call(change)
    }
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
    let observer = unsafeDowncast(subscription, to: ObservedObserver.self)
    lock.lock()
    // Already ended: whoever ended it removes it (the sweep, a delivery that found the owner gone,
    // `close()`).
    guard observer.claimEndLocked() else { return lock.unlock() }
    let removed = removeLocked(observer)
    lock.unlock()
    withExtendedLifetime(removed) {}  // released after the mutex
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    unsafeDowncast(subscription, to: ObservedObserver.self).isEnded
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {
    // Never called: an observer is in state mode.
  }
}
