import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

/// The owner form of `perform(after:)` and `ClosureTimer.cancel()` (issue 30, item 4).
@Suite struct ClosureTimerPerformOwnerTests {
  let clock = ManualClock()

  @Test func ownerFormPassesTheOwnerStrongAndRunsOnceAfterTheDelay() {
    let owner = Tracked("draft")
    let names = Recorder<String>()
    let subscription = ClosureTimer.perform(after: .seconds(2), owner: owner, clock: clock) { owner in
      names.append(owner.name)
    }
    clock.advance(by: .seconds(1))
    #expect(names.values.isEmpty)
    #expect(!subscription.isCancelled)
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(5))
    #expect(names.values == ["draft"])
    #expect(subscription.isCancelled)
  }

  @Test func ownerFormDoesNotKeepTheOwnerAliveAndNeverRunsOnceItIsGone() {
    let calls = Counter()
    var owner: Tracked? = Tracked()
    weak let weakOwner = owner
    let subscription = ClosureTimer.perform(after: .seconds(1), owner: owner!, clock: clock) { _ in
      calls.increment()
    }
    owner = nil
    #expect(weakOwner == nil)
    #expect(subscription.isCancelled)
    clock.advance(by: .seconds(2))
    #expect(calls.value == 0)
  }

  @Test func ownerFormReleasesItsBodyWhenTheOwnerDiesNoLaterThanTheDeadline() {
    var owner: Tracked? = Tracked()
    let witness = CaptureWitness()
    ClosureTimer.perform(after: .seconds(1), owner: owner!, clock: clock, witness.capturing { (_: Tracked) in })
    #expect(!witness.isReleased)
    owner = nil
    clock.advance(by: .seconds(1))
    #expect(witness.isReleased)
  }

  @Test func cancelledOwnerFormNeverRunsAndReleasesItsBodyAtOnce() {
    let owner = Tracked()
    let calls = Counter()
    let witness = CaptureWitness()
    let subscription = ClosureTimer.perform(
      after: .seconds(1), owner: owner, clock: clock, witness.capturing { (_: Tracked) in calls.increment() })
    subscription.cancel()
    #expect(witness.isReleased)
    clock.advance(by: .seconds(2))
    #expect(calls.value == 0)
    withExtendedLifetime(owner) {}
  }

  @Test func ownerFormOnAQueueRunsOnThatQueue() async {
    let queue = DispatchQueue(label: "perform-owner")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let owner = Tracked()
    let done = Expectation()
    let onQueue = Recorder<Bool>()
    ClosureTimer.perform(after: .seconds(1), owner: owner, on: .queue(queue), clock: clock) { _ in
      onQueue.append(DispatchQueue.getSpecific(key: key) == true)
      done.fulfill()
    }
    clock.advance(by: .seconds(1))
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(onQueue.values == [true])
    withExtendedLifetime(owner) {}
  }

  @Test func timerCancelIsInvalidate() {
    let calls = Counter()
    let witness = CaptureWitness()
    let timer = ClosureTimer.schedule(.every(.seconds(1)), clock: clock, witness.capturing { _ in calls.increment() })
    clock.advance(by: .seconds(1))
    timer.cancel()
    timer.cancel()
    #expect(!timer.isValid)
    #expect(witness.isReleased)
    clock.advance(by: .seconds(3))
    #expect(calls.value == 1)
  }

  @Test func bothDelayedWorkTokensAnswerCancel() {
    let calls = Counter()
    let owner = Tracked()
    // One job, two spellings; both are cancelled with `cancel()`.
    let scheduled = ClosureTimer.schedule(.after(.seconds(1)), owner: owner, clock: clock) { _, _ in calls.increment() }
    let performed = ClosureTimer.perform(after: .seconds(1), owner: owner, clock: clock) { _ in calls.increment() }
    scheduled.cancel()
    performed.cancel()
    clock.advance(by: .seconds(1))
    #expect(calls.value == 0)
  }
}

@Suite struct ClosureTimerPerformOwnerMainActorTests {
  @Test @MainActor func mainActorOwnerFormRunsOnTheMainActorWithTheOwner() async {
    let clock = ManualClock()
    let owner = Tracked("banner")
    let done = Expectation()
    let names = Recorder<String>()
    ClosureTimer.onMainActor.perform(after: .seconds(1), owner: owner, clock: clock) { owner in
      MainActor.assertIsolated()
      names.append(owner.name)
      done.fulfill()
    }
    #expect(await advance(clock, by: .seconds(1), thenWaitFor: done))
    #expect(names.values == ["banner"])
  }
}
