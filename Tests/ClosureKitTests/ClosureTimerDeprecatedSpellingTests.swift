import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

/// The spellings replaced by `TimerCadence` and `ClosureTimer.onMainActor` keep working for one
/// release: each deprecated forwarder is called once here (the tests are deprecated themselves,
/// so calling them does not warn).
@Suite struct ClosureTimerDeprecatedSpellingTests {
  let clock = ManualClock()

  @available(*, deprecated)
  @Test func afterAndEveryForwardToTheCadenceShape() {
    let calls = Recorder<String>()
    ClosureTimer.schedule(after: .seconds(1), clock: clock) { _ in calls.append("schedule after") }
    ClosureTimer.schedule(every: .seconds(1), tolerance: .zero, repeatCount: 1, on: .immediate, clock: clock) { _ in
      calls.append("schedule every")
    }
    let once = ClosureTimer(after: .seconds(1), clock: clock) { _ in calls.append("init after") }
    let beat = ClosureTimer(every: .seconds(1), repeatCount: 1, clock: clock) { _ in calls.append("init every") }
    once.start()
    beat.start()
    clock.advance(by: .seconds(3))
    #expect(calls.values == ["schedule after", "schedule every", "init after", "init every"])
  }

  @available(*, deprecated)
  @Test func ownerFormsForwardToTheCadenceShape() {
    let owner = Tracked("owner")
    let calls = Recorder<String>()
    ClosureTimer.schedule(after: .seconds(1), owner: owner, clock: clock) { owner, _ in calls.append("a \(owner.name)")
    }
    ClosureTimer.schedule(every: .seconds(1), owner: owner, repeatCount: 1, clock: clock) { _, _ in calls.append("b") }
    let once = ClosureTimer(after: .seconds(1), owner: owner, clock: clock) { _, _ in calls.append("c") }
    let beat = ClosureTimer(every: .seconds(1), owner: owner, repeatCount: 1, clock: clock) { _, _ in calls.append("d")
    }
    once.start()
    beat.start()
    clock.advance(by: .seconds(3))
    #expect(calls.values == ["a owner", "b", "c", "d"])
  }

  @available(*, deprecated)
  @Test(.exitTest) func badArgumentsOfTheOldSpellingsStillNameTheArgument() async {
    await #expect(processExitsWith: .failure) {
      _ = ClosureTimer(after: .seconds(-1), clock: ManualClock()) { _ in }
    }
    await #expect(processExitsWith: .failure) {
      ClosureTimer.schedule(every: .zero, clock: ManualClock()) { _ in }
    }
  }

  @available(*, deprecated)
  @Test @MainActor func mainActorDeliveryFormsForwardToTheView() async {
    let screen = MainActorScreen()
    let done = Expectation(count: 10)
    func note(_ entry: String) { screen.note(entry, fulfilling: done) }
    ClosureTimer.schedule(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor _ in note("1") }
    ClosureTimer.schedule(every: .seconds(1), repeatCount: 1, on: .mainActor, clock: clock) { @MainActor _ in note("2")
    }
    ClosureTimer.schedule(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) { @MainActor _, _ in
      note("3")
    }
    ClosureTimer.schedule(every: .seconds(1), owner: screen, repeatCount: 1, on: .mainActor, clock: clock) {
      @MainActor _, _ in note("4")
    }
    let stopped = [
      ClosureTimer(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor _ in note("5") },
      ClosureTimer(every: .seconds(1), repeatCount: 1, on: .mainActor, clock: clock) { @MainActor _ in note("6") },
      ClosureTimer(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) { @MainActor _, _ in note("7") },
      ClosureTimer(every: .seconds(1), owner: screen, repeatCount: 1, on: .mainActor, clock: clock) {
        @MainActor _, _ in note("8")
      },
    ]
    for timer in stopped { timer.start() }
    ClosureTimer.perform(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor in note("9") }
    ClosureTimer.perform(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) { @MainActor _ in note("10") }
    let clock = clock
    #expect(await advance(clock, by: .seconds(1), thenWaitFor: done))
    #expect(screen.log == (1...10).map(String.init))
  }
}
