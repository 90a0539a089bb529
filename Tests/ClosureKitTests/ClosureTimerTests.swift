import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

/// A clock ClosureKit does not know: it takes the task-driven fallback scheduler. Its `sleep` is
/// the `Clock` requirement the scheduler calls, not a wait in a test.
struct WrappedClock: Clock {
  let base = ContinuousClock()
  var now: ContinuousClock.Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }
  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

@Suite struct ClosureTimerTests {
  let clock = ManualClock()

  /// A timer on `clock` with `cadence`, and the count of its calls.
  func countingTimer(_ cadence: TimerCadence, on delivery: Delivery = .immediate) -> (ClosureTimer, Counter) {
    let calls = Counter()
    return (ClosureTimer.schedule(cadence, on: delivery, clock: clock) { _ in calls.increment() }, calls)
  }

  /// Expects `calls` to have counted `count`, and `timer` to be valid or not.
  func expect(
    _ calls: Counter, _ count: Int, _ timer: ClosureTimer, isValid: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(calls.value == count, sourceLocation: sourceLocation)
    #expect(timer.isValid == isValid, sourceLocation: sourceLocation)
  }

  // MARK: One-shot and repeating

  @Test func oneShotTimerFiresOnceAtItsDeadlineThenIsInvalid() {
    let (timer, calls) = countingTimer(.after(.seconds(1)))
    clock.advance(by: .milliseconds(999))
    expect(calls, 0, timer, isValid: true)
    clock.advance(by: .milliseconds(1))
    expect(calls, 1, timer, isValid: false)
    clock.advance(by: .seconds(10))
    #expect(calls.value == 1)
    #expect(timer.nextDeadline == nil)
  }

  @Test func oneShotTimerIsValidWhileItsHandlerRuns() {
    let validInside = Mutex<Bool?>(nil)
    ClosureTimer.schedule(.after(.seconds(1)), clock: clock) { timer in
      validInside.withLock { $0 = timer.isValid }
    }
    clock.advance(by: .seconds(1))
    #expect(validInside.withLock { $0 } == true)
  }

  @Test func repeatingTimerFiresOnceEveryInterval() {
    let (timer, calls) = countingTimer(.every(.seconds(1)))
    for expected in 1...5 {
      clock.advance(by: .seconds(1))
      #expect(calls.value == expected)
    }
    #expect(timer.fireCount == 5)
    timer.invalidate()
  }

  @Test func zeroDelayOneShotFiresOnTheNextAdvance() {
    let calls = Counter()
    ClosureTimer.schedule(.after(.zero), clock: clock) { _ in calls.increment() }
    #expect(calls.value == 0)
    clock.advance(by: .zero)
    #expect(calls.value == 1)
  }

  @Test func handlerReceivesTheTimerAndCanInvalidateItself() {
    let calls = Counter()
    let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { timer in
      calls.increment()
      if timer.fireCount == 2 { timer.invalidate() }
    }
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(calls.value == 2)
    #expect(!timer.isValid)
  }

  @Test func invalidateIsIdempotentAndStopsEveryLaterTick() {
    let (timer, calls) = countingTimer(.every(.seconds(1)))
    clock.advance(by: .seconds(1))
    timer.invalidate()
    timer.invalidate()
    clock.advance(by: .seconds(5))
    #expect(calls.value == 1)
    #expect(!timer.isValid)
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  // MARK: Drift and coalescing

  @Test func ticksStayOnTheirGridWhateverTheHandlerTakes() {
    let times = Recorder<Duration>()
    let clock = clock
    ClosureTimer.schedule(.every(.seconds(1), repeatCount: 3), clock: clock) { _ in
      times.append(clock.now.offset)
      clock.advance(by: .milliseconds(400))  // a slow handler: the clock moves while it runs
    }
    clock.advance(by: .seconds(1))
    clock.advance(to: ManualClock.Instant(offset: .seconds(2)))
    clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
    #expect(times.values == [.seconds(1), .seconds(2), .seconds(3)])
  }

  @Test func lateWakeUpKeepsTheNextDeadlineOnTheGrid() {
    let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { _ in }
    clock.advance(by: .milliseconds(1500))
    #expect(timer.nextDeadline as? ManualClock.Instant == ManualClock.Instant(offset: .seconds(2)))
    timer.invalidate()
  }

  @Test func missedTicksAreCoalescedIntoOneCallThatCountsThem() {
    let skipped = Recorder<Int>()
    let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { timer in
      skipped.append(timer.skippedTickCount)
    }
    clock.advance(by: .milliseconds(3500))
    #expect(skipped.values == [2])
    #expect(timer.fireCount == 1)
    #expect(timer.nextDeadline as? ManualClock.Instant == ManualClock.Instant(offset: .seconds(4)))
    clock.advance(by: .milliseconds(500))
    #expect(skipped.values == [2, 0])
    timer.invalidate()
  }

  @Test func toleranceNeverMovesTheGrid() {
    let times = Recorder<Duration>()
    let clock = clock
    let timer = ClosureTimer.schedule(.every(.seconds(1), tolerance: .milliseconds(500)), clock: clock) { _ in
      times.append(clock.now.offset)
    }
    for _ in 0..<3 { clock.advance(by: .seconds(1)) }
    #expect(times.values == [.seconds(1), .seconds(2), .seconds(3)])
    #expect(timer.nextDeadline as? ManualClock.Instant == ManualClock.Instant(offset: .seconds(4)))
    timer.invalidate()
  }

  @Test func eachManualClockDrivesOnlyItsOwnTimers() {
    let other = ManualClock()
    let calls = Recorder<String>()
    ClosureTimer.schedule(.after(.seconds(1)), clock: clock) { _ in calls.append("mine") }
    ClosureTimer.schedule(.after(.seconds(1)), clock: other) { _ in calls.append("other") }
    clock.advance(by: .seconds(1))
    #expect(calls.values == ["mine"])
    other.advance(by: .seconds(1))
    #expect(calls.values == ["mine", "other"])
  }

  @Test func advanceFiresDueTimersInDeadlineOrder() {
    let order = Recorder<String>()
    ClosureTimer.schedule(.after(.seconds(3)), clock: clock) { _ in order.append("3s") }
    ClosureTimer.schedule(.after(.seconds(1)), clock: clock) { _ in order.append("1s") }
    let repeating = ClosureTimer.schedule(.every(.milliseconds(1500)), clock: clock) { _ in order.append("every") }
    ClosureTimer.schedule(.after(.seconds(2)), clock: clock) { _ in order.append("2s") }
    clock.advance(by: .seconds(5))
    #expect(order.values == ["1s", "every", "2s", "3s"])
    repeating.invalidate()
  }

  @Test func timersDueAtTheSameInstantFireInSchedulingOrder() {
    let order = Recorder<Int>()
    for index in 0..<20 {
      ClosureTimer.schedule(.after(.seconds(1)), clock: clock) { _ in order.append(index) }
    }
    clock.advance(by: .seconds(1))
    #expect(order.values == Array(0..<20))
  }

  @Test func timerScheduledByAHandlerFiresInTheSameAdvanceWhenDue() {
    let order = Recorder<String>()
    let clock = clock
    ClosureTimer.schedule(.after(.seconds(1)), clock: clock) { _ in
      order.append("outer")
      ClosureTimer.schedule(.after(.zero), clock: clock) { _ in order.append("inner") }
      ClosureTimer.schedule(.after(.seconds(10)), clock: clock) { _ in order.append("later") }
    }
    clock.advance(by: .seconds(2))
    #expect(order.values == ["outer", "inner"])
  }

  // MARK: Lifetime

  @Test func scheduledTimerWithNoReferenceKeepsRunningUntilInvalidated() {
    let calls = Counter()
    weak var weakTimer: ClosureTimer?
    do {
      let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { timer in
        calls.increment()
        if timer.fireCount == 3 { timer.invalidate() }
      }
      weakTimer = timer
    }
    #expect(weakTimer != nil)
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(calls.value == 3)
    #expect(weakTimer == nil)
  }

  @Test func unstartedTimerIsReleasedLikeAnyObject() {
    weak var weakTimer: ClosureTimer?
    do {
      let timer = ClosureTimer(.every(.seconds(1)), clock: clock) { _ in }
      weakTimer = timer
    }
    #expect(weakTimer == nil)
  }

  @Test func invalidateReleasesWhatTheHandlerCaptured() {
    let witness = CaptureWitness()
    let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock, witness.capturing { _ in })
    clock.advance(by: .seconds(1))
    #expect(!witness.isReleased)
    timer.invalidate()
    #expect(witness.isReleased)
  }

  @Test func oneShotReleasesWhatItsHandlerCapturedAfterItRuns() {
    let witness = CaptureWitness()
    ClosureTimer.schedule(.after(.seconds(1)), clock: clock, witness.capturing { _ in })
    clock.advance(by: .seconds(1))
    #expect(witness.isReleased)
  }

  @Test func ownerBoundTimerGetsItsOwnerStrongAndStopsWhenTheOwnerGoes() {
    let calls = Recorder<String>()
    var owner: Tracked? = Tracked("screen")
    weak let weakOwner = owner
    let witness = CaptureWitness()
    let timer = ClosureTimer.schedule(
      .every(.seconds(1)), owner: owner!, clock: clock,
      witness.capturing { (owner: Tracked, _: ClosureTimer) in calls.append(owner.name + "tracked") })
    clock.advance(by: .seconds(1))
    #expect(calls.values == ["screentracked"])
    owner = nil
    #expect(weakOwner == nil, "the timer must not retain its owner")
    #expect(!timer.isValid)
    clock.advance(by: .seconds(1))
    #expect(calls.values == ["screentracked"])
    #expect(witness.isReleased)
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  @Test func ownerBoundOneShotNeverRunsAfterItsOwnerIsGone() {
    let calls = Counter()
    var owner: Tracked? = Tracked()
    let timer = ClosureTimer.schedule(.after(.seconds(1)), owner: owner!, clock: clock) { _, _ in calls.increment() }
    owner = nil
    timer.fire()
    clock.advance(by: .seconds(1))
    #expect(calls.value == 0)
    #expect(!timer.isValid)
  }

  @Test func ownerBoundInitWaitsForStart() {
    let owner = Tracked("owner")
    let names = Recorder<String>()
    let timer = ClosureTimer(.every(.seconds(1)), owner: owner, clock: clock) { owner, _ in names.append(owner.name) }
    clock.advance(by: .seconds(2))
    #expect(names.values.isEmpty)
    timer.start()
    clock.advance(by: .seconds(1))
    #expect(names.values == ["owner"])
    let oneShot = ClosureTimer(.after(.seconds(1)), owner: owner, clock: clock) { owner, _ in names.append("once") }
    oneShot.start()
    clock.advance(by: .seconds(1))
    #expect(names.values == ["owner", "owner", "once"])
    timer.invalidate()
  }

  // MARK: init and start, fire, pause, repeat count

  @Test func unscheduledTimerDoesNothingUntilStartThenCountsFromStart() {
    let calls = Counter()
    let timer = ClosureTimer(.every(.seconds(1)), clock: clock) { _ in calls.increment() }
    #expect(timer.nextDeadline == nil)
    clock.advance(by: .milliseconds(2500))
    #expect(calls.value == 0)
    timer.start()
    timer.start()
    #expect(timer.nextDeadline as? ManualClock.Instant == ManualClock.Instant(offset: .milliseconds(3500)))
    clock.advance(by: .seconds(1))
    #expect(calls.value == 1)
    timer.invalidate()
    timer.start()
    #expect(!timer.isValid)
  }

  @Test func fireRunsAOneShotNowAndInvalidatesIt() {
    let (timer, calls) = countingTimer(.after(.seconds(1)))
    timer.fire()
    #expect(calls.value == 1)
    #expect(!timer.isValid)
    clock.advance(by: .seconds(1))
    #expect(calls.value == 1)
  }

  @Test func fireOnARepeatingTimerKeepsItsSchedule() {
    let (timer, calls) = countingTimer(.every(.seconds(1)))
    clock.advance(by: .milliseconds(500))
    timer.fire()
    #expect(calls.value == 1)
    #expect(timer.nextDeadline as? ManualClock.Instant == ManualClock.Instant(offset: .seconds(1)))
    clock.advance(by: .milliseconds(500))
    #expect(calls.value == 2)
    #expect(timer.fireCount == 2)
    timer.invalidate()
  }

  @Test func fireOnAnInvalidTimerDoesNothing() {
    let (timer, calls) = countingTimer(.every(.seconds(1)))
    timer.invalidate()
    timer.fire()
    #expect(calls.value == 0)
  }

  @Test func pauseStopsTicksAndResumeShiftsTheGridByThePause() {
    let (timer, calls) = countingTimer(.every(.seconds(1)))
    clock.advance(by: .milliseconds(1200))
    #expect(calls.value == 1)
    timer.pause()
    #expect(timer.isPaused)
    #expect(timer.nextDeadline == nil)
    clock.advance(by: .seconds(10))
    #expect(calls.value == 1)
    timer.resume()
    #expect(!timer.isPaused)
    #expect(timer.nextDeadline as? ManualClock.Instant == ManualClock.Instant(offset: .seconds(12)))
    clock.advance(by: .milliseconds(800))
    #expect(calls.value == 2)
    #expect(timer.skippedTickCount == 0)
    timer.invalidate()
  }

  @Test func repeatCountEndsTheTimerAfterThatManyCalls() {
    let (timer, calls) = countingTimer(.every(.seconds(1), repeatCount: 3))
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(timer.isValid)
    clock.advance(by: .seconds(1))
    #expect(!timer.isValid)
    clock.advance(by: .seconds(5))
    #expect(calls.value == 3)
    #expect(timer.fireCount == 3)
  }

  @Test func coalescedCallCountsOnceAgainstRepeatCount() {
    let (timer, calls) = countingTimer(.every(.seconds(1), repeatCount: 2))
    clock.advance(by: .seconds(5))
    expect(calls, 1, timer, isValid: true)
    clock.advance(by: .seconds(1))
    expect(calls, 2, timer, isValid: false)
  }

  @Test func nextDeadlineIsAnInstantOfTheTimersClock() {
    let timer = ClosureTimer.schedule(.every(.seconds(2)), clock: clock) { _ in }
    #expect(timer.nextDeadline as? ManualClock.Instant == clock.now + .seconds(2))
    timer.invalidate()
    let continuous = ClosureTimer.schedule(.every(.seconds(60))) { _ in }
    #expect(continuous.nextDeadline is ContinuousClock.Instant)
    continuous.invalidate()
  }

  // MARK: Delivery and threading

  @Test func queuedCallThatHasNotStartedNeverStartsAfterInvalidate() async {
    let queue = DispatchQueue(label: "timer-test")
    let (timer, calls) = countingTimer(.every(.seconds(1)), on: .queue(queue))
    queue.suspend()
    clock.advance(by: .seconds(1))
    timer.invalidate()
    queue.resume()
    await drain(queue)
    #expect(calls.value == 0)
    #expect(timer.fireCount == 0)
  }

  @Test func queuedOneShotIsValidUntilItsCallHasRun() async {
    let queue = DispatchQueue(label: "timer-test")
    let timer = ClosureTimer.schedule(.after(.seconds(1)), on: .queue(queue), clock: clock) { _ in }
    queue.suspend()
    clock.advance(by: .seconds(1))
    #expect(timer.isValid)
    queue.resume()
    await drain(queue)
    #expect(!timer.isValid)
    #expect(timer.fireCount == 1)
  }

  @Test func queueDeliveryRunsTheHandlerOnTheQueue() async {
    let queue = DispatchQueue(label: "timer-test")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let onQueue = Recorder<Int?>()
    let done = Expectation()
    ClosureTimer.schedule(.after(.seconds(1)), on: .queue(queue), clock: clock) { _ in
      onQueue.append(DispatchQueue.getSpecific(key: key))
      done.fulfill()
    }
    clock.advance(by: .seconds(1))
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(onQueue.values == [7])
  }

  @Test func handlerMayControlItsTimerAndOthersWithoutDeadlock() {
    let clock = clock
    let calls = Counter()
    let other = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { _ in calls.increment() }
    ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { timer in
      calls.increment()
      timer.pause()
      timer.resume()
      if timer.fireCount == 1 { timer.fire() }  // re-entrant: runs this handler again, depth-first
      other.invalidate()
      _ = timer.nextDeadline
      timer.invalidate()
    }
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(!other.isValid)
    #expect(calls.value == 3)  // `other` once, this handler twice
  }

  @Test func timersFromManyThreadsAllFireExactlyOnce() {
    let clock = clock
    let calls = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for index in 0..<250 {
        ClosureTimer.schedule(.after(.milliseconds(index % 50 + 1)), clock: clock) { _ in calls.increment() }
      }
    }
    clock.advance(by: .seconds(1))
    #expect(calls.value == 2000)
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  @Test func tenThousandTimersFireInOneAdvance() {
    let calls = Counter()
    let timers = (0..<10_000).map { index in
      ClosureTimer.schedule(.every(.milliseconds(1000 + index % 97)), clock: clock) { _ in calls.increment() }
    }
    clock.advance(by: .milliseconds(1100))
    #expect(calls.value == 10_000)
    for timer in timers { timer.invalidate() }
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  // MARK: perform(after:)

  @Test func performRunsTheBodyOnceAfterTheDelay() {
    let calls = Counter()
    let subscription = ClosureTimer.perform(after: .seconds(1), clock: clock) { calls.increment() }
    #expect(!subscription.isCancelled)
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(calls.value == 1)
    #expect(subscription.isCancelled)
  }

  @Test func cancelledPerformNeverRunsAndReleasesItsBody() {
    let calls = Counter()
    let witness = CaptureWitness()
    let subscription = ClosureTimer.perform(after: .seconds(1), clock: clock, witness.capturing { calls.increment() })
    subscription.cancel()
    subscription.cancel()
    #expect(witness.isReleased)
    clock.advance(by: .seconds(2))
    #expect(calls.value == 0)
    #expect(subscription.isCancelled)
  }

  @Test func droppedPerformTokenDoesNotCancelTheWork() {
    let calls = Counter()
    ClosureTimer.perform(after: .seconds(1), clock: clock) { calls.increment() }
    clock.advance(by: .seconds(1))
    #expect(calls.value == 1)
  }

  // MARK: Real clocks

  @Test(.timeLimit(.minutes(1)))
  func tenMillisecondTimerFiresOnTheRealClockWithNoRunLoop() async {
    let fired = Expectation()
    let clock = ContinuousClock()
    let start = clock.now
    let elapsed = Mutex<Duration?>(nil)
    ClosureTimer.schedule(.after(.milliseconds(10))) { _ in
      elapsed.withLock { $0 = start.duration(to: clock.now) }
      fired.fulfill()
    }
    #expect(await fired.wait(timeout: crossThreadDeadline))
    #expect(elapsed.withLock { $0 }.map { $0 >= .milliseconds(10) } == true)
  }

  @Test(.timeLimit(.minutes(1)))
  func repeatingTimersFireOnSuspendingAndUnknownClocks() async {
    let ticks = Expectation(count: 6)
    let suspending = ClosureTimer.schedule(.every(.milliseconds(5), repeatCount: 3), clock: SuspendingClock()) { _ in
      ticks.fulfill()
    }
    let wrapped = ClosureTimer.schedule(.every(.milliseconds(5), repeatCount: 3), clock: WrappedClock()) { _ in
      ticks.fulfill()
    }
    // The unknown clock's timer sleeps in a task: in a full parallel run on a loaded 2-core
    // machine (and under AddressSanitizer) the cooperative pool was busy for more than 5 s.
    #expect(await ticks.wait(timeout: crossThreadDeadline))
    #expect(suspending.fireCount == 3)
    #expect(wrapped.fireCount == 3)
  }

  // MARK: No deinit under the scheduler's lock

  @Test func anOrphanedTimerFreedByTheSchedulerFreesItsDeliveryAfterTheLock() async {
    let clock = ManualClock()
    let probe = ClosureTimer(.every(.seconds(1)), clock: clock) { _ in }
    let valid = Slot<Bool>()
    do {
      let owner = Tracked("owner")
      // Only the heap holds the timer; its delivery holds an object that reads a timer on the
      // same clock (so takes the scheduler's lock) in its deinit.
      let capture = ReadsTimerInDeinit(probe, into: valid)
      let delivery = Delivery.scheduled { [capture] job in
        _ = capture
        job()
      }
      ClosureTimer.schedule(.every(.seconds(1)), owner: owner, on: delivery, clock: clock) { _, _ in }
    }
    let advanced = Expectation()
    onOwnThread {  // not a pool thread: a deadlock here would hold it for good
      clock.advance(by: .seconds(1))
      advanced.fulfill()
    }
    guard await advanced.wait(timeout: crossThreadDeadline) else {
      // The scheduler's lock is held for good: reading the clock's timers would hang too.
      Issue.record("the delivery was freed under the scheduler's lock")
      return
    }
    #expect(valid.value == true)
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  /// Race: the owner's last reference is dropped while `isValid` or `fire` holds it from its weak
  /// load; the owner's deinit invalidates the timer. Hung before the fix within a few seconds.
  @Test(.heavy) func anOwnerDroppedWhileTheTimerReadsItMayInvalidateTheTimer() async {
    let clock = ManualClock()
    let current = Slot<ClosureTimer>()
    let finished = await raceFinishes { progress in
      for _ in 0..<stressRounds(300_000) {
        let owner = InvalidatesInDeinit()
        let timer = ClosureTimer(.every(.seconds(1)), owner: owner, clock: clock) { _, _ in }
        owner.timer.value = timer
        current.value = timer
        progress.advance()
      }
    } reader: {
      guard let timer = current.value else { return }
      _ = timer.isValid
      timer.fire()
    }
    #expect(finished, "an owner's deinit ran under the scheduler's lock")
  }

  /// Race: the owner's last reference is dropped while the scheduler, firing due timers, holds it
  /// from its weak load; the owner's deinit invalidates the timer.
  @Test(.heavy) func anOwnerDroppedWhileTheSchedulerFiresMayInvalidateTheTimer() async {
    let clock = ManualClock()
    let finished = await raceFinishes { progress in
      for _ in 0..<stressRounds(300_000) {
        let owner = InvalidatesInDeinit()
        owner.timer.value = ClosureTimer.schedule(.every(.seconds(1)), owner: owner, clock: clock) { _, _ in }
        progress.advance()
      }
    } reader: {
      clock.advance(by: .seconds(1))
    }
    #expect(finished, "an owner's deinit ran under the scheduler's lock")
  }
}

/// An owner that invalidates its timer in its deinit.
final class InvalidatesInDeinit: Sendable {
  let timer = Slot<ClosureTimer>()
  deinit { timer.value?.invalidate() }
}

/// An object that reads whether a timer is valid in its deinit.
final class ReadsTimerInDeinit: Sendable {
  let timer: ClosureTimer
  let valid: Slot<Bool>
  init(_ timer: ClosureTimer, into valid: Slot<Bool>) {
    self.timer = timer
    self.valid = valid
  }
  deinit { valid.value = timer.isValid }
}

@Suite struct ManualClockTests {
  /// Found by the soak under ThreadSanitizer: several threads advancing one clock at once drew
  /// data-race reports on its time (its `Synchronization.Mutex`'s contended path is invisible to
  /// ThreadSanitizer). Every timer due fires once, and the clock ends at the sum of the advances.
  @Test func aClockAdvancedFromSeveralThreadsAtOnceFiresEachTimerOnce() async {
    let clock = ManualClock()
    let fired = Counter()
    let timers = (1...200).map { index in
      ClosureTimer.schedule(.after(.milliseconds(index)), clock: clock) { _ in fired.increment() }
    }
    let done = Expectation(count: 4)
    for _ in 0..<4 {
      onOwnThread {
        for _ in 0..<100 { clock.advance(by: .milliseconds(1)) }
        done.fulfill()
      }
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(clock.now.offset == .milliseconds(400))
    #expect(fired.value == 200)
    #expect(timers.allSatisfy { !$0.isValid })
  }

  @Test func sleepResumesWhenTheClockIsAdvancedPastTheDeadline() async throws {
    let clock = ManualClock()
    let woke = Expectation()
    let deadline = clock.now + .seconds(1)
    let task = Task {
      try await clock.sleep(until: deadline)
      woke.fulfill()
    }
    // Advance in small steps until the sleeper has registered and woken.
    var steps = 0
    while !woke.isFulfilled, steps < 100_000 {
      if clock.now.offset < .seconds(1) { clock.advance(by: .milliseconds(100)) }
      await Task.yield()
      steps += 1
    }
    try await task.value
    #expect(woke.isFulfilled)
    #expect(clock.now >= ManualClock.Instant(offset: .seconds(1)))
  }

  @Test func sleepUntilThePastReturnsAtOnce() async throws {
    let clock = ManualClock()
    clock.advance(by: .seconds(1))
    try await clock.sleep(until: ManualClock.Instant(offset: .zero))
  }

  @Test func cancelledSleepThrowsCancellationError() async {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(60), clock: clock) }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func copiesShareOneTime() {
    let clock = ManualClock()
    let copy = clock
    copy.advance(by: .seconds(3))
    #expect(clock.now.offset == .seconds(3))
    #expect(clock.now - ManualClock.Instant(offset: .seconds(1)) == .seconds(2))
    #expect(clock.minimumResolution == .zero)
  }
}

extension ManualClock {
  /// Waiting for a duration on this manual clock, for the cancellation test.
  fileprivate func sleep(for duration: Duration, clock: ManualClock) async throws {
    try await self.sleep(until: now + duration)
  }
}

@Suite struct ClosureTimerMainActorTests {
  @Test @MainActor func mainActorHandlerRunsOnTheMainActor() async {
    let clock = ManualClock()
    let done = Expectation(count: 2)
    let calls = Recorder<String>()
    ClosureTimer.onMainActor.schedule(.after(.seconds(1)), clock: clock) { _ in
      MainActor.assertIsolated()
      calls.append("once")
      done.fulfill()
    }
    ClosureTimer.onMainActor.schedule(.every(.seconds(1), repeatCount: 1), clock: clock) { timer in
      MainActor.assertIsolated()
      calls.append("every \(timer.fireCount)")
      done.fulfill()
    }
    #expect(await advance(clock, by: .seconds(1), thenWaitFor: done))
    #expect(calls.values == ["once", "every 1"])
  }
}

/// Whether this process may give a thread the priority Dispatch gives user-initiated work (on
/// Linux it needs `CAP_SYS_NICE` or a permissive `RLIMIT_NICE`), tried on a throwaway thread;
/// `false` where the nice value cannot be read (Apple platforms schedule by QoS class).
private let canRaiseThreadPriority =
  SchedulerThreadPriority.currentThreadNice() != nil && SchedulerThreadPriority.isRaisingPermitted()

@Suite struct ClosureTimerPriorityTests {
  /// Under load, the one scheduler thread at the default priority lost most ticks of 1,000 10 ms
  /// timers that Dispatch's user-initiated timers kept (see the Timers article): it now runs at
  /// the priority Dispatch gives that work.
  @Test(.enabled(if: canRaiseThreadPriority, "this process may not raise a thread's priority (Linux: CAP_SYS_NICE)"))
  func theSchedulerThreadRunsAtTheUserInitiatedPriorityOfDispatch() async {
    let nice = Mutex<Int32?>(nil)
    let called = Expectation()
    ClosureTimer.schedule(.after(.milliseconds(1))) { _ in
      nice.withLock { $0 = SchedulerThreadPriority.currentThreadNice() }
      called.fulfill()
    }
    #expect(await called.wait(timeout: crossThreadDeadline))
    #expect(nice.withLock { $0 } == SchedulerThreadPriority.userInitiatedNice)
  }
}
