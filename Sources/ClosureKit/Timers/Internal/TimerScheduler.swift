internal import Synchronization

/// How a ``TimerScheduler`` reads its clock and arranges to wake up.
///
/// Times are offsets from an origin the driver fixes once (its clock's `now` when it was made), so
/// the scheduler and ``ClosureTimer`` need no generic clock parameter.
package protocol TimerDriver: Sendable {
  /// The clock's current time, as an offset from the origin.
  func now() -> Duration
  /// The clock's instant at `offset` from the origin.
  func instant(at offset: Duration) -> any InstantProtocol<Duration>
  /// Arranges for `scheduler.fireDue()` to run at `deadline` (`nil`: never), replacing the previous
  /// arrangement. Called with the scheduler's lock held: it must not call back synchronously.
  func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler)
}

/// What a clock gives the timer machinery when it brings its own scheduler (`ManualClock`).
package protocol TimerSchedulerProviding {
  /// The scheduler every timer on this clock uses.
  var timerScheduler: TimerScheduler { get }
}

/// A min-heap of timer deadlines on one clock, with one wake-up armed at the earliest.
///
/// Every ``ClosureTimer`` on the scheduler keeps its mutable state under this scheduler's lock, so
/// its state and its place in the heap change together. A scheduled timer is held strongly by the
/// heap, which is why a scheduled timer with no other reference keeps running.
///
/// `@unchecked Sendable`: `state` is a lock; `driver` is `Sendable`.
package final class TimerScheduler: @unchecked Sendable {
  /// One scheduled timer in the heap; the sort key is kept here so that sifting does not touch
  /// the timer objects.
  struct Entry {
    var deadline: Duration
    var sequence: UInt64
    let timer: ClosureTimer
  }

  /// A due timer's call, prepared under the lock.
  enum DueCall {
    /// Run `handler` on this thread now; the call is already counted as started.
    case immediate(ClosureTimer, @Sendable (ClosureTimer) -> Void, isFinal: Bool)
    /// Hand the job to the timer's delivery; it checks validity when it starts.
    case deferred(ClosureTimer, @Sendable () -> Void)
  }

  struct State {
    /// The scheduled timers, a binary min-heap ordered by (deadline, sequence).
    var heap: [Entry] = []
    /// Incremented per insertion, so equal deadlines fire in scheduling order.
    var sequence: UInt64 = 0
    /// The deadline the driver is armed for; `nil` when it is not armed.
    var armed: Duration?
  }

  /// Reads the clock and wakes the scheduler.
  package let driver: any TimerDriver
  /// The heap; its lock also guards every `var` of every ``ClosureTimer`` on this scheduler. Taken
  /// only through ``withLock(_:)``, which records the holder for ``assertLocked()``.
  private let state = Locked(State())
  #if DEBUG
    /// The token of the thread inside ``withLock(_:)``, 0 when none: what ``assertLocked()``
    /// compares with the caller's. Written only by the holder, so relaxed ordering suffices.
    private let holder = Atomic<Int>(0)
  #endif

  package init(driver: any TimerDriver) {
    self.driver = driver
  }

  /// Runs `body` under the lock that guards the heap and every timer's state.
  func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    state.withLock { state in
      #if DEBUG
        holder.store(currentThreadID, ordering: .relaxed)
        defer { holder.store(0, ordering: .relaxed) }
      #endif
      return body(&state)
    }
  }

  /// Stops a debug build unless the calling thread holds this scheduler's lock: the check behind
  /// "under the lock" on the timer's and the heap's functions. Nothing in release builds.
  func assertLocked(_ function: StaticString = #function) {
    #if DEBUG
      if holder.load(ordering: .relaxed) != currentThreadID {
        failPrecondition("TimerScheduler: \(function) needs the scheduler's lock, which this thread does not hold")
      }
    #endif
  }

  /// Fires, in deadline order, every timer whose deadline is not after the clock's current time,
  /// then re-arms the driver for the earliest remaining deadline. Handlers with immediate delivery
  /// run on the calling thread before this returns.
  package func fireDue() {
    while let call = nextDueCall() {
      switch call {
      case .immediate(let timer, let handler, let isFinal):
        handler(timer)
        if isFinal { timer.invalidate() }
      case .deferred(let timer, let job):
        timer.delivery.execute(job)
      }
    }
  }

  /// Pops the earliest due timer and prepares its call; re-arms and returns `nil` when none is due.
  private func nextDueCall() -> DueCall? {
    // Timers whose owner is gone, with their handlers, released after the lock is dropped: the
    // heap may have held such a timer's last reference, and freeing it frees its delivery.
    var released: [(ClosureTimer, (@Sendable (ClosureTimer) -> Void)?)] = []
    // The due timer's owner, loaded under the lock and released after it: if another thread drops
    // the owner's last reference meanwhile, its deinit (which may invalidate the timer) runs here,
    // not under the lock. At most one live owner is loaded, as the first live timer is returned.
    var owner: (any AnyObject & Sendable)?
    defer { withExtendedLifetime((released, owner)) {} }
    return withLock { state in
      let now = driver.now()
      while let entry = state.heap.first, entry.deadline <= now {
        let top = entry.timer
        state.removeTimer(at: 0)
        if top.isOwnerBound {
          owner = top.owner
          if owner == nil {
            released.append((top, top.end()))
            continue
          }
        }
        return top.tick(at: now, state: &state)
      }
      state.armed = state.heap.first?.deadline
      driver.arm(at: state.armed, leeway: state.heap.first?.timer.tolerance ?? .zero, for: self)
      return nil
    }
  }

  /// Inserts `timer` (its deadline already set) and re-arms if it is now the earliest. Under the lock.
  func insert(_ timer: ClosureTimer, state: inout State) {
    assertLocked()
    state.sequence &+= 1
    timer.heapIndex = state.heap.count
    state.heap.append(Entry(deadline: timer.deadline, sequence: state.sequence, timer: timer))
    state.siftUp(state.heap.count - 1)
    if let armed = state.armed, armed <= timer.deadline { return }
    state.armed = timer.deadline
    driver.arm(at: timer.deadline, leeway: timer.tolerance, for: self)
  }

  /// Removes `timer` from the heap if it is there; disarms once the heap is empty. Under the lock.
  func remove(_ timer: ClosureTimer, state: inout State) {
    assertLocked()
    guard timer.heapIndex >= 0 else { return }
    state.removeTimer(at: timer.heapIndex)
    if state.heap.isEmpty, state.armed != nil {
      state.armed = nil
      driver.arm(at: nil, leeway: .zero, for: self)
    }
  }

  /// The number of scheduled timers (for tests and benchmarks).
  package var scheduledCount: Int {
    withLock { $0.heap.count }
  }
}

extension TimerScheduler.State {
  /// Whether the timer at `lhs` fires before the one at `rhs`.
  ///
  /// Reads the two keys in place: copying an `Entry` would retain and release its timer, which
  /// was the largest cost of a tick on the scheduler thread (perf, 1,000 timers every 10 ms).
  private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
    heap.withUnsafeBufferPointer { entries in
      let leftDeadline = entries[lhs].deadline
      let rightDeadline = entries[rhs].deadline
      if leftDeadline != rightDeadline { return leftDeadline < rightDeadline }
      return entries[lhs].sequence < entries[rhs].sequence
    }
  }

  private mutating func swapAt(_ lhs: Int, _ rhs: Int) {
    heap.swapAt(lhs, rhs)
    heap[lhs].timer.heapIndex = lhs
    heap[rhs].timer.heapIndex = rhs
  }

  mutating func siftUp(_ start: Int) {
    var index = start
    while index > 0 {
      let parent = (index - 1) / 2
      guard precedes(index, parent) else { return }
      swapAt(index, parent)
      index = parent
    }
  }

  mutating func siftDown(_ start: Int) {
    var index = start
    while true {
      let left = 2 * index + 1
      guard left < heap.count else { return }
      var child = left
      if left + 1 < heap.count, precedes(left + 1, left) { child = left + 1 }
      guard precedes(child, index) else { return }
      swapAt(index, child)
      index = child
    }
  }

  /// Removes the timer at `index` and restores the heap order.
  mutating func removeTimer(at index: Int) {
    let removed = heap[index].timer
    let last = heap.count - 1
    if index != last {
      swapAt(index, last)
    }
    heap.removeLast()
    removed.heapIndex = -1
    guard index < heap.count else { return }
    siftDown(index)
    siftUp(index)
  }
}
