/// Everything mutable about the timers of one ``TimerScheduler``: a table of timer records and a
/// binary min-heap of the scheduled ones. A value, changed only by its `mutating` transitions, which
/// return what to do after the lock: which driver arming to apply, which handler to call, which
/// references to release. ``TimerScheduler`` keeps it in a `Locked` and is the only place that runs
/// those actions; a ``ClosureTimer`` holds only `let`s, among them its record's index.
///
/// Nothing here releases a timer, a handler or an owner: every reference leaving the state is
/// returned, so a `deinit` it triggers runs after the lock (it may call back into the scheduler).
struct TimerSchedulerState {
  /// Where a timer is in its life.
  enum Phase: Equatable {
    /// Created, not started yet.
    case idle
    /// In the heap, waiting for `deadline`.
    case scheduled
    /// Paused at the given clock offset; out of the heap.
    case paused(at: Duration)
    /// Every call it will make is committed; valid until the last of them has returned.
    case finishing
    /// Invalidated or finished: no call starts any more.
    case invalid
  }

  /// What a timer's cadence fixes for its whole life.
  struct Config {
    /// The repeat interval, or the delay of a one-shot timer.
    let period: Duration
    /// Whether the timer repeats.
    let isRepeating: Bool
    /// How late the scheduler may wake up for this timer.
    let tolerance: Duration
    /// The number of calls after which the timer ends; `nil`: no limit. 1 for a one-shot timer.
    let callLimit: Int?
    /// Whether calls run on the scheduler's thread.
    let isImmediate: Bool
  }

  /// One timer's mutable state.
  struct Record {
    /// The cadence.
    let config: Config
    /// The handler; `nil` once the timer is invalid, so what it captured is released.
    var handler: (@Sendable (ClosureTimer) -> Void)?
    /// Where the timer is in its life.
    var phase = Phase.idle
    /// Tick *n* is due at `anchor + n * period`: the start, moved by the time spent paused.
    var anchor = Duration.zero
    /// The index of the next tick.
    var nextTick: Int64 = 1
    /// The deadline of the next tick while scheduled.
    var deadline = Duration.zero
    /// The position in the heap; -1 when not in it.
    var heapIndex = -1
    /// The timer, held while it is in the heap (a scheduled timer runs with no other reference).
    var timer: ClosureTimer?
    /// Calls committed so far (ticks and `fire()`), counted against `callLimit`.
    var committedCalls = 0
    /// Committed calls that have not returned (or been skipped) yet; counted for limited timers
    /// only: a finishing timer becomes invalid when it reaches 0.
    var unfinishedCalls = 0
    /// Calls that have started.
    var startedCalls = 0
    /// Ticks coalesced into the call that started last.
    var skippedTicks = 0
  }

  /// One scheduled timer in the heap; the key is kept here so that sifting touches no object.
  struct Entry {
    var deadline: Duration
    var sequence: UInt64
    /// The timer's index in `records`.
    let id: Int
  }

  /// A driver arming to apply after the lock; applied only if no later one was applied first.
  struct Arm {
    /// Increases with every arming this state asks for.
    let generation: UInt64
    /// When to wake; `nil`: never.
    let deadline: Duration?
    /// How late the wake-up may be.
    let leeway: Duration
  }

  /// A call the scheduler has committed, to run after the lock.
  struct Call {
    /// The timer; the step also keeps it alive until the call is handed over.
    let timer: ClosureTimer
    /// With immediate delivery: the handler, already counted as started. Otherwise `nil`: the
    /// timer's delivery runs a job that starts the call (``startCall(_:skipped:)``) or skips it.
    let handler: (@Sendable (ClosureTimer) -> Void)?
    /// Ticks this call stands for beyond one.
    let skipped: Int
    /// Whether the call must report its end (``finishCall(_:)``): the timer has a call limit.
    let reportsEnd: Bool
    /// The owner of an owner-bound timer, held until the call has been handed over, so that a
    /// `deinit` it triggers runs after the call has started, never between commit and start.
    let owner: (any AnyObject & Sendable)?
  }

  /// What one step of a wake-up does (``advance(now:)``).
  enum Step {
    /// An orphaned timer (owner gone) ended: release these, then take the next step.
    case release(ClosureTimer, (@Sendable (ClosureTimer) -> Void)?)
    /// Make this call, then take the next step.
    case call(Call)
    /// Nothing is due: apply the arming, if any, and stop.
    case idle(Arm?)
  }

  /// What ending or unscheduling a timer leaves to do after the lock.
  struct Released {
    /// The handler of a timer that just became invalid.
    var handler: (@Sendable (ClosureTimer) -> Void)?
    /// The heap's reference to the timer.
    var timer: ClosureTimer?
    /// The arming to apply.
    var arm: Arm?
  }

  /// Every timer's record, indexed by ``ClosureTimer``'s `id`; `nil` in free slots.
  var records: [Record?] = []
  /// Free indices of `records`.
  var free: [Int] = []
  /// The scheduled timers, ordered by (deadline, sequence).
  var heap: [Entry] = []
  /// Incremented per insertion, so equal deadlines fire in scheduling order.
  var sequence: UInt64 = 0
  /// The deadline the driver was last asked to wake at; `nil`: not armed.
  var armed: Duration?
  /// The generation of the last ``Arm`` returned.
  var armGeneration: UInt64 = 0

  // MARK: Transitions

  /// Adds the record of a new, idle timer and returns its id.
  mutating func register(_ config: Config, handler: @escaping @Sendable (ClosureTimer) -> Void) -> Int {
    let record = Record(config: config, handler: handler)
    let id: Int
    if let reused = free.popLast() {
      id = reused
      records[id] = record
    } else {
      id = records.count
      records.append(record)
    }
    assert(verifyInvariants())
    return id
  }

  /// Removes the record of a deallocated timer (never in the heap: the heap holds it) and returns
  /// its handler, to be released after the lock.
  mutating func unregister(_ id: Int) -> (@Sendable (ClosureTimer) -> Void)? {
    let handler = records[id]?.handler
    records[id] = nil
    free.append(id)
    assert(verifyInvariants())
    return handler
  }

  /// Schedules an idle timer: its first tick is due one period after `now`.
  mutating func schedule(_ id: Int, _ timer: ClosureTimer, now: Duration) -> Arm? {
    guard records[id]!.phase == .idle else { return nil }
    records[id]!.anchor = now
    records[id]!.nextTick = 1
    records[id]!.deadline = now + records[id]!.config.period
    records[id]!.phase = .scheduled
    let arm = insert(id, timer)
    assert(verifyInvariants())
    return arm
  }

  /// Ends the timer for good: out of the heap, invalid, its handler returned for release.
  mutating func invalidate(_ id: Int) -> Released {
    guard records[id]!.phase != .invalid else { return Released() }
    var released = remove(id)
    released.handler = end(id)
    assert(verifyInvariants())
    return released
  }

  /// Takes a scheduled timer out of the heap until ``resume(_:now:)``.
  mutating func pause(_ id: Int, now: Duration) -> Released {
    guard records[id]!.phase == .scheduled else { return Released() }
    let released = remove(id)
    records[id]!.phase = .paused(at: now)
    assert(verifyInvariants())
    return released
  }

  /// Puts a paused timer back, its grid moved by the time spent paused.
  mutating func resume(_ id: Int, _ timer: ClosureTimer, now: Duration) -> Arm? {
    guard case .paused(let pausedAt) = records[id]!.phase else { return nil }
    let shift = now - pausedAt
    records[id]!.anchor += shift
    records[id]!.deadline += shift
    records[id]!.phase = .scheduled
    let arm = insert(id, timer)
    assert(verifyInvariants())
    return arm
  }

  /// Commits a call out of schedule (`fire()`); `nil` if the timer cannot make one more call.
  /// The call starts through ``startCall(_:skipped:)``.
  mutating func fire(_ id: Int) -> (reportsEnd: Bool, released: Released)? {
    let phase = records[id]!.phase
    guard phase != .invalid, phase != .finishing else { return nil }
    var released = Released()
    if commit(id) {
      released = remove(id)
      records[id]!.phase = .finishing
    }
    assert(verifyInvariants())
    return (records[id]!.config.callLimit != nil, released)
  }

  /// Starts a committed call: counts it and returns the handler, or `nil` (the call is skipped)
  /// if the timer is invalid. The re-check that makes "after `invalidate()` returns no call starts".
  mutating func startCall(_ id: Int, skipped: Int) -> (@Sendable (ClosureTimer) -> Void)? {
    guard records[id]!.phase != .invalid, let handler = records[id]!.handler else { return nil }
    records[id]!.startedCalls += 1
    records[id]!.skippedTicks = skipped
    return handler
  }

  /// Records that a committed call of a limited timer returned or was skipped; ends the timer
  /// (returning its handler) when it was finishing and this was its last call.
  mutating func finishCall(_ id: Int) -> (@Sendable (ClosureTimer) -> Void)? {
    guard records[id]!.phase != .invalid else { return nil }
    records[id]!.unfinishedCalls -= 1
    guard records[id]!.phase == .finishing, records[id]!.unfinishedCalls == 0 else { return nil }
    let handler = end(id)
    assert(verifyInvariants())
    return handler
  }

  /// One step of a wake-up at `now`: ends the earliest due timer if its owner is gone, or commits
  /// its call (rescheduling or finishing it), or, once nothing is due, asks to re-arm the driver.
  /// A step that releases something commits nothing: the release may invalidate the next timer.
  mutating func advance(now: Duration) -> Step {
    guard let entry = heap.first, entry.deadline <= now else {
      armGeneration &+= 1
      armed = heap.first?.deadline
      let leeway = heap.first.map { records[$0.id]!.config.tolerance } ?? .zero
      return .idle(Arm(generation: armGeneration, deadline: armed, leeway: leeway))
    }
    let id = entry.id
    let timer = removeEntry(at: 0)
    var owner: (any AnyObject & Sendable)?
    if timer.isOwnerBound {
      owner = timer.owner
      if owner == nil {
        let handler = end(id)
        assert(verifyInvariants())
        return .release(timer, handler)
      }
    }
    let skipped = tick(id, now: now)
    if commit(id) {
      records[id]!.phase = .finishing
    } else {
      _ = insert(id, timer)  // the idle step re-arms
    }
    let config = records[id]!.config
    let handler = config.isImmediate ? startCall(id, skipped: skipped) : nil
    assert(verifyInvariants())
    return .call(
      Call(timer: timer, handler: handler, skipped: skipped, reportsEnd: config.callLimit != nil, owner: owner))
  }

  // MARK: Helpers of the transitions

  /// Moves a due timer's grid past `now`; returns the ticks coalesced beyond one.
  private mutating func tick(_ id: Int, now: Duration) -> Int {
    let config = records[id]!.config
    guard config.isRepeating else { return 0 }
    let next = records[id]!.deadline + config.period
    if now < next {
      // On time (the common case): no division needed.
      records[id]!.nextTick += 1
      records[id]!.deadline = next
      return 0
    }
    let anchor = records[id]!.anchor
    let due = Int64((now - anchor).attoseconds / config.period.attoseconds)
    let skipped = Int(due - records[id]!.nextTick)
    records[id]!.nextTick = due + 1
    records[id]!.deadline = Duration(
      attoseconds: anchor.attoseconds + config.period.attoseconds * Int128(due + 1))
    return skipped
  }

  /// Counts one committed call; returns whether it is the timer's last.
  private mutating func commit(_ id: Int) -> Bool {
    records[id]!.committedCalls += 1
    guard let limit = records[id]!.config.callLimit else { return false }
    records[id]!.unfinishedCalls += 1
    return records[id]!.committedCalls >= limit
  }

  /// Marks the timer invalid and returns its handler (out of the heap already).
  private mutating func end(_ id: Int) -> (@Sendable (ClosureTimer) -> Void)? {
    records[id]!.phase = .invalid
    defer { records[id]!.handler = nil }
    return records[id]!.handler
  }

  /// Inserts a timer (its deadline set); asks to arm if it is now the earliest.
  private mutating func insert(_ id: Int, _ timer: ClosureTimer) -> Arm? {
    sequence &+= 1
    let deadline = records[id]!.deadline
    records[id]!.heapIndex = heap.count
    records[id]!.timer = timer
    heap.append(Entry(deadline: deadline, sequence: sequence, id: id))
    siftUp(heap.count - 1)
    if let armed, armed <= deadline { return nil }
    armed = deadline
    armGeneration &+= 1
    return Arm(generation: armGeneration, deadline: deadline, leeway: records[id]!.config.tolerance)
  }

  /// Takes the timer out of the heap if it is there; asks to disarm once the heap is empty.
  private mutating func remove(_ id: Int) -> Released {
    let index = records[id]!.heapIndex
    guard index >= 0 else { return Released() }
    var released = Released(timer: removeEntry(at: index))
    if heap.isEmpty, armed != nil {
      armed = nil
      armGeneration &+= 1
      released.arm = Arm(generation: armGeneration, deadline: nil, leeway: .zero)
    }
    return released
  }
}
