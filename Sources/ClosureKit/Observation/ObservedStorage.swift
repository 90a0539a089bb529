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
final class ObservedStorage<Value: Sendable>: SubscriptionSource {
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
    /// The thread that holds the gate, if any.
    @usableFromInline var writer: ThreadIdentity?
    /// How many times the writer holds the gate (re-entrant writes from its handlers).
    @usableFromInline var depth = 0
    /// Threads waiting for the gate.
    @usableFromInline var waiting = 0
    /// Set when the box is deallocated: every observer has ended.
    @usableFromInline var isClosed = false
  }

  @usableFromInline let lock: GateLock<State>
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

  /// Takes the gate for `me`, waiting while another thread holds it. Only while locked.
  @inlinable
  func acquireGateLocked(_ me: ThreadIdentity) {
    while let writer = lock.value.writer, !writer.isSame(as: me) {
      lock.value.waiting += 1
      lock.wait()
      lock.value.waiting -= 1
    }
    lock.value.writer = me
    lock.value.depth += 1
  }

  /// Releases one hold of the gate and wakes waiting writers when it is free.
  @inlinable
  func releaseGate() {
    lock.lock()
    lock.value.depth -= 1
    if lock.value.depth == 0 {
      lock.value.writer = nil
      if lock.value.waiting > 0 { lock.broadcast() }
    }
    lock.unlock()
  }

  /// Replaces the value: prior callbacks, the write, post callbacks, in one turn of the gate.
  @inlinable
  func write(_ newValue: Value) {
    let me = ThreadIdentity.current
    lock.lock()
    if lock.value.observers.isEmpty, isEqual == nil,
      lock.value.writer.map({ $0.isSame(as: me) }) ?? true
    {
      // Fast path: nobody to tell. The old value is released after the mutex (its deinit may
      // run arbitrary code).
      let old = lock.value.value
      lock.value.value = newValue
      lock.unlock()
      _ = old
      return
    }
    acquireGateLocked(me)
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
    let me = ThreadIdentity.current
    lock.lock()
    acquireGateLocked(me)
    let old = lock.value.value
    let observers = lock.value.observers
    lock.unlock()
    defer { releaseGate() }
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
    let me = ThreadIdentity.current
    var garbage: [Observer] = []
    lock.lock()
    sweepOrphansLocked(into: &garbage)
    observer.token = token
    let wantsInitial = options.contains(.initial)
    if wantsInitial { acquireGateLocked(me) }
    lock.value.observers.append(observer)
    if options.contains(.prior) { lock.value.priorCount += 1 }
    if owner != nil { lock.value.ownerBoundCount += 1 }
    let current = wantsInitial ? lock.value.value : nil
    lock.unlock()
    garbage.removeAll()
    if let current {
      deliver(options.initialChange(current), to: observer)
      releaseGate()
    }
    return token
  }

  /// Removes observers whose owner is gone. Only while locked.
  private func sweepOrphansLocked(into garbage: inout [Observer]) {
    guard lock.value.ownerBoundCount > 0 else { return }
    for observer in lock.value.observers where observer.isOwnerBound && observer.owner == nil {
      observer.ended.store(true, ordering: .releasing)
      if let removed = removeLocked(observer) { garbage.append(removed) }
    }
  }

  /// Removes an ended observer and detaches its token. Only while locked. Returns it, to be
  /// released after the mutex.
  private func removeLocked(_ observer: Observer) -> Observer? {
    if let token = observer.token {
      token.node = nil
      observer.token = nil
    }
    guard let index = lock.value.observers.firstIndex(where: { $0 === observer }) else { return nil }
    if observer.options.contains(.prior) { lock.value.priorCount -= 1 }
    if observer.isOwnerBound { lock.value.ownerBoundCount -= 1 }
    return lock.value.observers.remove(at: index)
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
      return observers
    }
    lock.withLock { _ in
      for observer in observers {
        observer.ended.store(true, ordering: .releasing)
        if let token = observer.token {
          token.node = nil
          observer.token = nil
        }
      }
    }
  }

  /// The number of observers that have not ended.
  var observerCount: Int {
    lock.withLock { state in state.observers.lazy.filter { !$0.isEnded }.count }
  }

  // MARK: SubscriptionSource

  package func cancel(_ subscription: Subscription) {
    let garbage = lock.withLock { _ -> (AnyObject?, Observer?) in
      guard let reference = subscription.node else { return (nil, nil) }
      let observer = unsafeDowncast(reference, to: Observer.self)
      observer.ended.store(true, ordering: .releasing)
      return (reference, removeLocked(observer))
    }
    _ = garbage
  }

  package func isCancelled(_ subscription: Subscription) -> Bool {
    lock.withLock { _ in
      guard let reference = subscription.node else { return true }
      return unsafeDowncast(reference, to: Observer.self).isEnded
    }
  }

  package func subscriptionWillDeinit(_ subscription: Subscription) {}
}
