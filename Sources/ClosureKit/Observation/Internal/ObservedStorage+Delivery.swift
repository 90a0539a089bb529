public import Synchronization

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

/// The delivering thread's work: the queue of changes written while it delivered, and the calls of
/// the handlers.
extension ObservedStorage {
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
  ///
  /// A queued write is taken together with the writes queued right after it for the same observers,
  /// as one change: from the first one's old value to the last one's new value, the box's latest
  /// state unless an initial callback or a change of the observers is queued after them. So a
  /// handler is not handed values that later writes have already replaced: two boxes bound both
  /// ways by handlers that copy `newValue` once chased each other forever with such values. Writes
  /// made while no other thread delivers are never queued: each is one change.
  @usableFromInline
  func takePendingLocked() -> Pending? {
    var head = lock.value.pendingHead
    let count = lock.value.pending.count
    guard head < count, let first = lock.value.pending[head] else {
      return nil
    }
    lock.value.pending[head] = nil
    head += 1
    var taken = first
    if case .write(let old, var new, let observers) = first.kind {
      var isCoalesced = false
      while head < count, let next = lock.value.pending[head],
        case .write(_, let later, let laterObservers) = next.kind,
        Self.isSameList(observers, laterObservers)
      {
        new = later
        lock.value.pending[head] = nil
        head += 1
        isCoalesced = true
      }
      if isCoalesced { taken = Pending(.write(old: old, new: new, observers: observers)) }
    }
    if head == count {
      lock.value.pending.removeAll(keepingCapacity: count <= 64)
      lock.value.pendingHead = 0
    } else {
      lock.value.pendingHead = head
    }
    return taken
  }

  /// Whether two queued writes go to the same observers: their arrays share one buffer (each write
  /// takes the registry's array, which a change of the observers copies, since queued writes share
  /// it). Both arrays are alive, so an equal address is the same buffer.
  static func isSameList(_ first: ContiguousArray<ObserverEntry>, _ second: ContiguousArray<ObserverEntry>) -> Bool {
    first.count == second.count
      && first.withUnsafeBufferPointer { first in
        second.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
      }
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

  /// For a write delivered at once, before the mutex is released: whether an observer wants the
  /// prior callback; if one does, reads show `old` (as shown by write `sequence`) while the prior
  /// callbacks run. Called with the mutex held.
  @inlinable @inline(__always)
  func showPriorLocked(_ old: Value, _ sequence: Int) -> Bool {
    guard registry.priorCount > 0 else { return false }
    lock.value.shownValue = old
    lock.value.shownBy = sequence
    return true
  }

  /// Delivers a write at once, after the mutex is released: the prior callbacks if `hasPrior`
  /// (then no longer showing `old`, unless a later write already replaced it), then the post
  /// callbacks.
  @inlinable @inline(__always)
  func notifyNow(
    _ observers: UnsafeBufferPointer<ObserverEntry>, old: Value, new: Value, hasPrior: Bool, sequence: Int
  ) {
    if hasPrior {
      notifyPrior(observers, old: old)
      lock.withLock { state in
        if state.shownBy == sequence { state.shownValue = nil }
      }
    }
    notifyPost(observers, old: old, new: new)
  }

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
          // Not chosen by a flag: every handler of this storage is made by its `add`, as
          // `ObservedHandler<Value>` (`Handler`); `unsafeDowncast` checks it in debug builds.
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
}
