import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

/// A small, seeded generator, so that a failing run can be replayed.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

/// What a timer should be doing, by a model that knows nothing of heaps: a grid, a count, a phase.
struct TimerModel {
  let period: Duration
  let isRepeating: Bool
  let limit: Int?
  var anchor: Duration
  var nextTick: Int64 = 1
  var pausedAt: Duration?
  var isValid = true
  var calls = 0

  var deadline: Duration { anchor + period * Int(nextTick) }
  var isScheduled: Bool { isValid && pausedAt == nil }

  /// One call made (a due tick or `fire()`); ends the timer at its limit.
  mutating func call() {
    calls += 1
    if !isRepeating || limit.map({ calls >= $0 }) == true { isValid = false }
  }

  /// The clock moved to `now`: at most one call, missed ticks coalesced into it.
  mutating func advance(to now: Duration) {
    guard isScheduled, deadline <= now else { return }
    nextTick = Int64((now - anchor).attoseconds / period.attoseconds) + 1
    call()
  }
}

/// `TimerScheduler` against ``TimerModel`` on a `ManualClock`: thousands of timers, random
/// schedule, invalidate, pause, resume, fire and advance; the scheduler's invariants checked after
/// every step, every timer compared with its model.
@Suite struct TimerSchedulerModelTests {
  @Test(arguments: [1, 2, 3])
  func theSchedulerDoesWhatASimpleModelDoes(seed: UInt64) {
    var random = SplitMix(state: seed)
    let clock = ManualClock()
    var now = Duration.zero
    var timers: [ClosureTimer] = []
    var models: [TimerModel] = []
    var counters: [Counter] = []
    for step in 0..<3_000 {
      let roll = Int.random(in: 0..<100, using: &random)
      let pick = timers.isEmpty ? nil : Int.random(in: 0..<timers.count, using: &random)
      switch roll {
      case 0..<40:
        let period = Duration.milliseconds(Int.random(in: 1...40, using: &random))
        let kind = Int.random(in: 0..<3, using: &random)
        let limit = kind == 2 ? Int.random(in: 1...4, using: &random) : nil
        let cadence: TimerCadence = kind == 0 ? .after(period) : .every(period, repeatCount: limit)
        let counter = Counter()
        timers.append(ClosureTimer.schedule(cadence, clock: clock) { _ in counter.increment() })
        models.append(TimerModel(period: period, isRepeating: kind != 0, limit: kind == 0 ? 1 : limit, anchor: now))
        counters.append(counter)
      case 40..<50:
        guard let pick else { continue }
        timers[pick].invalidate()
        models[pick].isValid = false
      case 50..<58:
        guard let pick else { continue }
        timers[pick].pause()
        if models[pick].isScheduled { models[pick].pausedAt = now }
      case 58..<66:
        guard let pick else { continue }
        timers[pick].resume()
        if models[pick].isValid, let pausedAt = models[pick].pausedAt {
          models[pick].anchor += now - pausedAt
          models[pick].pausedAt = nil
        }
      case 66..<72:
        guard let pick else { continue }
        timers[pick].fire()
        if models[pick].isValid { models[pick].call() }
      default:
        let by = Duration.milliseconds(Int.random(in: 0...30, using: &random))
        now += by
        clock.advance(by: by)
        for index in models.indices { models[index].advance(to: now) }
      }
      #expect(clock.timerScheduler.verifyInvariants(), "step \(step)")
      #expect(clock.timerScheduler.scheduledCount == models.count(where: \.isScheduled), "step \(step)")
      if let pick, step % 10 == 0 || roll < 72 {
        expect(timers[pick], counters[pick], models[pick], step: step)
      }
    }
    for index in timers.indices { expect(timers[index], counters[index], models[index], step: 3_000) }
    #expect(timers.count > 1_000)
    // A scheduled timer and its clock's scheduler hold each other until it ends: end them all, so
    // that the clock, its timers and their counters are freed with the test (AddressSanitizer's
    // leak check in .ci/run).
    for timer in timers { timer.invalidate() }
  }

  func expect(
    _ timer: ClosureTimer, _ counter: Counter, _ model: TimerModel, step: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(counter.value == model.calls, "step \(step)", sourceLocation: sourceLocation)
    #expect(timer.fireCount == model.calls, "step \(step)", sourceLocation: sourceLocation)
    #expect(timer.isValid == model.isValid, "step \(step)", sourceLocation: sourceLocation)
    #expect(timer.isPaused == (model.isValid && model.pausedAt != nil), "step \(step)", sourceLocation: sourceLocation)
    let deadline = (timer.nextDeadline as? ManualClock.Instant)?.offset
    #expect(deadline == (model.isScheduled ? model.deadline : nil), "step \(step)", sourceLocation: sourceLocation)
  }

  /// Several threads schedule, fire, pause, resume and invalidate their own timers (immediate and
  /// concurrent-queue delivery) while others advance the clock. Then: the invariants hold, no call
  /// started after its timer's `invalidate()` returned, and every limited timer that was never
  /// invalidated or paused made exactly `repeatCount` calls.
  @Test func theRulesHoldWithSeveralThreadsAtOnce() async {
    let clock = ManualClock()
    let queue = DispatchQueue(label: "timer-model", attributes: .concurrent)
    let results = Locked<[(calls: Counter, limit: Int)]>([])
    let invalidatedTimers = Locked<[(timer: ClosureTimer, startedBefore: Int)]>([])
    let finished = await onOwnThreads(0..<4) { thread in
      guard thread > 0 else {
        for _ in 0..<2_000 { clock.advance(by: .milliseconds(1)) }
        return
      }
      var random = SplitMix(state: UInt64(thread))
      var owned: [(timer: ClosureTimer, calls: Counter, limit: Int, touched: Bool)] = []
      for _ in 0..<1_500 {
        let pick = owned.isEmpty ? nil : Int.random(in: 0..<owned.count, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<5:
          let calls = Counter()
          let limit = Int.random(in: 1...4, using: &random)
          let delivery: Delivery = Bool.random(using: &random) ? .immediate : .queue(queue)
          let timer = ClosureTimer.schedule(
            .every(.milliseconds(Int.random(in: 1...5, using: &random)), repeatCount: limit), on: delivery, clock: clock
          ) { _ in calls.increment() }
          owned.append((timer, calls, limit, false))
        case 5..<7:
          guard let pick else { continue }
          owned[pick].timer.invalidate()
          // Counted at each call's start, under the lock: no call may start from here on.
          let startedBefore = owned[pick].timer.fireCount
          invalidatedTimers.withLock { $0.append((owned[pick].timer, startedBefore)) }
          owned[pick].touched = true
        case 7:
          guard let pick else { continue }
          owned[pick].timer.pause()
          owned[pick].timer.resume()
          owned[pick].touched = true
        default:
          guard let pick else { continue }
          owned[pick].timer.fire()
        }
      }
      let untouched = owned.filter { !$0.touched }.map { (calls: $0.calls, limit: $0.limit) }
      results.withLock { $0 += untouched }
    }
    #expect(finished)
    // Every limited timer ends within 4 ticks of at most 5 ms; one advance makes at most one call
    // per timer, so take 5 steps of 10 ms.
    for _ in 0..<5 { clock.advance(by: .milliseconds(10)) }
    let drained = Expectation()
    queue.async(flags: .barrier) { drained.fulfill() }
    #expect(await drained.wait(timeout: crossThreadDeadline))
    #expect(clock.timerScheduler.verifyInvariants())
    #expect(clock.timerScheduler.scheduledCount == 0)
    let late = invalidatedTimers.withLock { $0.filter { $0.timer.fireCount != $0.startedBefore } }
    #expect(late.isEmpty, "\(late.count) timers started a call after invalidate() returned")
    let untouched = results.withLock { $0 }
    #expect(!untouched.isEmpty)
    let wrong = untouched.filter { $0.calls.value != $0.limit }
    #expect(wrong.isEmpty, "\(wrong.count) of \(untouched.count) timers made a number of calls other than repeatCount")
  }
}
