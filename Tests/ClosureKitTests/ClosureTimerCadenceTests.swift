import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

@testable import ClosureKit

/// The one registration shape: a `TimerCadence`, then `owner:`, then the delivery, then the clock,
/// then the closure; each cadence with and without an owner, scheduled and made stopped, and the
/// same through the main-actor view.
@Suite struct ClosureTimerCadenceTests {
  let clock = ManualClock()

  // MARK: The cadence value

  @Test func aCadenceIsAValueThatSeveralTimersShare() {
    let beat = TimerCadence.every(.seconds(1), repeatCount: 2)
    #expect(beat == .every(.seconds(1), tolerance: .zero, repeatCount: 2))
    #expect(beat != .every(.seconds(1)))
    #expect(TimerCadence.after(.seconds(1)) != .every(.seconds(1)))
    let calls = Recorder<String>()
    ClosureTimer.schedule(beat, clock: clock) { _ in calls.append("a") }
    ClosureTimer.schedule(beat, clock: clock) { _ in calls.append("b") }
    for _ in 1...3 { clock.advance(by: .seconds(1)) }
    #expect(calls.values == ["a", "b", "a", "b"])
  }

  // MARK: No owner

  @Test func afterRunsOnceAtTheDelayThenTheTimerIsInvalid() {
    let calls = Counter()
    let timer = ClosureTimer.schedule(.after(.seconds(2)), clock: clock) { _ in calls.increment() }
    clock.advance(by: .seconds(1))
    #expect(calls.value == 0)
    clock.advance(by: .seconds(1))
    #expect(calls.value == 1)
    #expect(!timer.isValid)
    clock.advance(by: .seconds(10))
    #expect(calls.value == 1)
  }

  @Test func everyTicksOnItsGridUntilItsRepeatCount() {
    let ticks = Recorder<Int>()
    let timer = ClosureTimer.schedule(.every(.seconds(1), repeatCount: 3), clock: clock) { timer in
      ticks.append(timer.fireCount)
    }
    clock.advance(by: .seconds(1))
    clock.advance(by: .milliseconds(1500))
    #expect(ticks.values == [1, 2])
    #expect(timer.nextDeadline as? ManualClock.Instant == clock.now + .milliseconds(500))
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(ticks.values == [1, 2, 3])
    #expect(!timer.isValid)
  }

  @Test func aStoppedTimerOfEitherCadenceRunsOnlyOnceStarted() {
    let calls = Recorder<String>()
    let once = ClosureTimer(.after(.seconds(1)), clock: clock) { _ in calls.append("once") }
    let beat = ClosureTimer(.every(.seconds(1)), on: .immediate, clock: clock) { _ in calls.append("beat") }
    clock.advance(by: .seconds(3))
    #expect(calls.values.isEmpty)
    once.start()
    beat.start()
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    #expect(calls.values == ["once", "beat", "beat"])
    beat.invalidate()
  }

  @Test func theDeliveryComesAfterTheCadence() async {
    let queue = DispatchQueue(label: "cadence.delivery")
    let calls = Counter()
    let timer = ClosureTimer.schedule(.every(.seconds(1)), on: .queue(queue), clock: clock) { _ in
      dispatchPrecondition(condition: .onQueue(queue))
      calls.increment()
    }
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    await drain(queue)
    #expect(calls.value == 2)
    timer.invalidate()
  }

  // MARK: Owner

  @Test func ownerComesAfterTheCadenceAndIsPassedInStrong() {
    let owner = Tracked("screen")
    let calls = Recorder<String>()
    ClosureTimer.schedule(.after(.seconds(1)), owner: owner, clock: clock) { owner, _ in calls.append(owner.name) }
    let beat = ClosureTimer.schedule(.every(.seconds(1), repeatCount: 2), owner: owner, on: .immediate, clock: clock) {
      owner, timer in calls.append("\(owner.name) \(timer.fireCount)")
    }
    for _ in 1...3 { clock.advance(by: .seconds(1)) }
    #expect(calls.values == ["screen", "screen 1", "screen 2"])
    #expect(!beat.isValid)
  }

  @Test func eitherCadenceStopsWhenItsOwnerIsDeallocated() {
    var owner: Tracked? = Tracked()
    weak let gone = owner
    let calls = Counter()
    let once = ClosureTimer.schedule(.after(.seconds(1)), owner: owner!, clock: clock) { _, _ in calls.increment() }
    let beat = ClosureTimer(.every(.seconds(1)), owner: owner!, clock: clock) { _, _ in calls.increment() }
    beat.start()
    owner = nil
    #expect(gone == nil)
    #expect(!once.isValid)
    #expect(!beat.isValid)
    clock.advance(by: .seconds(3))
    #expect(calls.value == 0)
  }
}

/// `ClosureTimer.onMainActor`: the same cadences and owners, with `@MainActor` closures that need
/// no annotation. The clock is advanced on another thread; calls arrive on the main actor.
@Suite struct ClosureTimerMainActorViewTests {
  let clock = ManualClock()

  @Test @MainActor func scheduleRunsEitherCadenceOnTheMainActor() async {
    let screen = MainActorScreen()
    let done = Expectation(count: 3)
    ClosureTimer.onMainActor.schedule(.after(.seconds(1)), clock: clock) { _ in screen.note("once", fulfilling: done) }
    ClosureTimer.onMainActor.schedule(.every(.seconds(1), repeatCount: 2), clock: clock) { timer in
      screen.note("beat \(timer.fireCount)", fulfilling: done)
    }
    let clock = clock
    DispatchQueue.global().async { for _ in 1...2 { clock.advance(by: .seconds(1)) } }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(screen.log == ["once", "beat 1", "beat 2"])
  }

  @Test @MainActor func scheduleWithAnOwnerPassesItInOnTheMainActor() async {
    let screen = MainActorScreen()
    let done = Expectation(count: 2)
    ClosureTimer.onMainActor.schedule(.after(.seconds(1)), owner: screen, clock: clock) { screen, _ in
      screen.note("owner once", fulfilling: done)
    }
    ClosureTimer.onMainActor.schedule(.every(.seconds(1), repeatCount: 1), owner: screen, clock: clock) { screen, _ in
      screen.note("owner beat", fulfilling: done)
    }
    let clock = clock
    #expect(await advance(clock, by: .seconds(1), thenWaitFor: done))
    #expect(screen.log == ["owner once", "owner beat"])
  }

  @Test @MainActor func makeTimerRunsOnlyOnceStarted() async {
    let screen = MainActorScreen()
    let done = Expectation(count: 2)
    let once = ClosureTimer.onMainActor.makeTimer(.after(.seconds(1)), clock: clock) { _ in
      screen.note("once", fulfilling: done)
    }
    let beat = ClosureTimer.onMainActor.makeTimer(.every(.seconds(1), repeatCount: 1), owner: screen, clock: clock) {
      screen, _ in
      screen.note("owner beat", fulfilling: done)
    }
    let clock = clock
    await runAndWait(on: .global()) { clock.advance(by: .seconds(2)) }
    await drainMainQueue()
    #expect(screen.log.isEmpty)
    once.start()
    beat.start()
    #expect(await advance(clock, by: .seconds(1), thenWaitFor: done))
    #expect(screen.log == ["once", "owner beat"])
  }

  @Test @MainActor func performRunsOnTheMainActorAndCancelStopsIt() async {
    let screen = MainActorScreen()
    let done = Expectation(count: 2)
    let cancelled = ClosureTimer.onMainActor.perform(after: .seconds(1), clock: clock) { screen.note("cancelled") }
    ClosureTimer.onMainActor.perform(after: .seconds(1), clock: clock) { screen.note("delayed", fulfilling: done) }
    ClosureTimer.onMainActor.perform(after: .seconds(2), owner: screen, clock: clock) { screen in
      screen.note("owner", fulfilling: done)
    }
    cancelled.cancel()
    let clock = clock
    #expect(await advance(clock, by: .seconds(2), thenWaitFor: done))
    #expect(screen.log == ["delayed", "owner"])
    #expect(cancelled.isCancelled)
  }

  @Test @MainActor func theViewDoesNotKeepTheOwnerAlive() async {
    var owner: MainActorScreen? = MainActorScreen()
    weak let gone = owner
    let timer = ClosureTimer.onMainActor.schedule(.every(.seconds(1)), owner: owner!, clock: clock) { screen, _ in
      screen.note("never")
    }
    owner = nil
    #expect(gone == nil)
    #expect(!timer.isValid)
    let clock = clock
    await runAndWait(on: .global()) { clock.advance(by: .seconds(2)) }
    await drainMainQueue()
  }
}
