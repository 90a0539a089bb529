import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

/// The two rules of a timer's calls: after `invalidate()` returns no call starts, and a timer with
/// `repeatCount: n` that is never invalidated makes exactly `n` calls, whatever order its calls
/// start in (a concurrent queue, a custom delivery, `fire()` from another thread).
@Suite struct ClosureTimerCallRuleTests {
  /// A releasing wake-up: the first due timer is orphaned (its owner is gone), and its handler
  /// captured an object whose deinit invalidates the second due timer. The scheduler releases the
  /// orphan; the second timer must not start after that `invalidate()` returned.
  @Test func aTimerInvalidatedByAReleaseDuringAWakeUpNeverStarts() {
    let clock = ManualClock()
    let calls = Counter()
    do {
      let owner = Tracked("owner")
      let capture = InvalidatesInDeinit()
      ClosureTimer.schedule(.after(.seconds(1)), owner: owner, clock: clock) { _, _ in _ = capture }
      capture.timer.value = ClosureTimer.schedule(.after(.seconds(1)), clock: clock) { _ in
        calls.increment()
      }
    }
    clock.advance(by: .seconds(1))
    #expect(calls.value == 0, "the handler started after invalidate() returned")
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  /// The same on a repeating timer: its tick that falls due in the releasing wake-up never starts.
  @Test func aRepeatingTimerInvalidatedByAReleaseDuringAWakeUpNeverStartsAgain() {
    let clock = ManualClock()
    let calls = Counter()
    do {
      let owner = Tracked("owner")
      let invalidates = InvalidatesInDeinit()
      // Scheduled first: due at the same instant, it comes first in the wake-up.
      ClosureTimer.schedule(.after(.seconds(1)), owner: owner, clock: clock) { _, _ in _ = invalidates }
      invalidates.timer.value = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { _ in calls.increment() }
    }
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(calls.value == 0, "a call started after invalidate() returned")
    #expect(clock.timerScheduler.scheduledCount == 0)
  }

  /// Calls of a limited timer started last-first by a custom delivery: every one of them runs.
  @Test func aLimitedTimerMakesEveryCommittedCallWhateverOrderTheyStartIn() {
    let clock = ManualClock()
    let jobs = Jobs()
    let calls = Counter()
    let timer = ClosureTimer.schedule(
      .every(.seconds(1), repeatCount: 3), on: .scheduled(by: jobs.append), clock: clock
    ) { _ in calls.increment() }
    for _ in 1...3 { clock.advance(by: .seconds(1)) }
    #expect(timer.isValid)
    for job in jobs.takeAll().reversed() { job() }
    #expect(calls.value == 3)
    #expect(timer.fireCount == 3)
    #expect(!timer.isValid)
  }

  /// `fire()` on a valid limited timer commits a call that runs, even when the scheduler's last
  /// call starts before it.
  @Test func aFireThatIsCommittedRunsEvenIfTheLastCallStartsFirst() {
    let clock = ManualClock()
    let jobs = Jobs()
    let calls = Counter()
    let timer = ClosureTimer.schedule(
      .every(.seconds(1), repeatCount: 2), on: .scheduled(by: jobs.append), clock: clock
    ) { _ in calls.increment() }
    onNewThread { timer.fire() }
    clock.advance(by: .seconds(1))
    for job in jobs.takeAll().reversed() { job() }
    #expect(calls.value == 2)
    #expect(!timer.isValid)
  }

  /// `fire()` from another thread and the clock's ticks, all on a concurrent queue whose workers
  /// start the calls in whatever order: exactly `repeatCount` calls every round.
  @Test func fireFromAnotherThreadOnAConcurrentQueueKeepsTheRepeatCount() async {
    let clock = ManualClock()
    for _ in 0..<50 {
      let queue = DispatchQueue(label: "timer-test", attributes: .concurrent)
      let calls = Counter()
      let timer = ClosureTimer.schedule(.every(.seconds(1), repeatCount: 40), on: .queue(queue), clock: clock) { _ in
        calls.increment()
      }
      let fired = Expectation()
      onOwnThread {
        for _ in 0..<30 { timer.fire() }
        fired.fulfill()
      }
      for _ in 0..<10 { clock.advance(by: .seconds(1)) }
      #expect(await fired.wait(timeout: crossThreadDeadline))
      for _ in 0..<10 { clock.advance(by: .seconds(1)) }
      let drained = Expectation()
      queue.async(flags: .barrier) { drained.fulfill() }
      #expect(await drained.wait(timeout: crossThreadDeadline))
      #expect(calls.value == 40)
      guard calls.value == 40 else { return }
    }
  }
}

/// Jobs a custom delivery has been handed, to be run in an order the test chooses.
final class Jobs: Sendable {
  private let jobs = Mutex<[@Sendable () -> Void]>([])

  func append(_ job: @escaping @Sendable () -> Void) {
    jobs.withLock { $0.append(job) }
  }

  func takeAll() -> [@Sendable () -> Void] {
    jobs.withLock { jobs in
      defer { jobs = [] }
      return jobs
    }
  }
}
