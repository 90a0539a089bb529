import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

/// The `MainActorDelivery` overloads added so that every public API taking `on: Delivery` has one:
/// `Event.once`, `ClosureTimer.perform(after:)`, the stopped and owner-bound timers, `Observed`.
@Suite struct MainActorDeliveryOverloadTests {
  @Test @MainActor func onceRunsAMainActorHandlerOnceOnTheMainActor() async {
    let screen = MainActorScreen()
    let event = Event<Int>()
    let done = Expectation(count: 2)
    event.onMainActor.once { value in screen.note("once \(value)", fulfilling: done) }
    event.onMainActor.once(owner: screen) { screen, value in screen.note("owner \(value)", fulfilling: done) }
    DispatchQueue.global().async {
      event.send(1)
      event.send(2)
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    await drainMainQueue()
    #expect(screen.log == ["once 1", "owner 1"])
    #expect(event.handlerCount == 0)
  }

  // The deprecated `MainActorDelivery` timer spellings (now `ClosureTimer.onMainActor`): kept working
  // for one release.
  @available(*, deprecated)
  @Test @MainActor func performRunsAMainActorBodyOnTheMainActorAndCancelStopsIt() async {
    let screen = MainActorScreen()
    let clock = ManualClock()
    let done = Expectation()
    let cancelled = ClosureTimer.perform(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor in
      screen.note("cancelled")
    }
    ClosureTimer.perform(after: .seconds(2), on: .mainActor, clock: clock) { @MainActor in
      screen.note("delayed", fulfilling: done)
    }
    cancelled.cancel()
    #expect(await advance(clock, by: .seconds(2), thenWaitFor: done))
    #expect(screen.log == ["delayed"])
    #expect(cancelled.isCancelled)
  }

  // The deprecated `MainActorDelivery` timer spellings (now `ClosureTimer.onMainActor`): kept working
  // for one release.
  @available(*, deprecated)
  @Test @MainActor func ownerAndStoppedTimersRunMainActorHandlersOnTheMainActor() async {
    let screen = MainActorScreen()
    let clock = ManualClock()
    let done = Expectation(count: 6)
    ClosureTimer.schedule(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) { @MainActor screen, _ in
      screen.note("owner once", fulfilling: done)
    }
    ClosureTimer.schedule(every: .seconds(1), owner: screen, repeatCount: 1, on: .mainActor, clock: clock) {
      @MainActor screen, _ in screen.note("owner every", fulfilling: done)
    }
    let once = ClosureTimer(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor _ in
      screen.note("stopped once", fulfilling: done)
    }
    let every = ClosureTimer(every: .seconds(1), repeatCount: 1, on: .mainActor, clock: clock) { @MainActor _ in
      screen.note("stopped every", fulfilling: done)
    }
    let ownedOnce = ClosureTimer(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) {
      @MainActor screen, _ in screen.note("stopped owner once", fulfilling: done)
    }
    let ownedEvery = ClosureTimer(every: .seconds(1), owner: screen, repeatCount: 1, on: .mainActor, clock: clock) {
      @MainActor screen, _ in screen.note("stopped owner every", fulfilling: done)
    }
    once.start()
    every.start()
    ownedOnce.start()
    ownedEvery.start()
    #expect(await advance(clock, by: .seconds(1), thenWaitFor: done))
    #expect(
      Set(screen.log) == [
        "owner once", "owner every", "stopped once", "stopped every", "stopped owner once", "stopped owner every",
      ])
  }

  @Test @MainActor func observedRunsMainActorHandlersOnTheMainActor() async {
    let screen = MainActorScreen()
    let volume = Observed(1)
    let done = Expectation(count: 3)
    volume.observing([.initial, .new]).onMainActor.addHandler { change in
      screen.note("plain \(change.newValue ?? 0)", fulfilling: done)
    }
    volume.observing([.new]).onMainActor.addHandler(owner: screen) { screen, change in
      screen.note("owner \(change.newValue ?? 0)", fulfilling: done)
    }
    DispatchQueue.global().async { volume.value = 2 }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(screen.log.filter { $0.hasPrefix("plain") } == ["plain 1", "plain 2"])
    #expect(screen.log.filter { $0.hasPrefix("owner") } == ["owner 2"])
  }

  @Test @MainActor func anUnannotatedClosureWithMainActorDeliveryStillCompilesAndRunsOnTheMainActor() async {
    // Unannotated, `.mainActor` is `Delivery.mainActor` (the new overloads make no call ambiguous):
    // the handler is nonisolated, and runs on the main actor.
    let event = Event<Int>()
    let done = Expectation()
    let onMain = Recorder<Bool>()
    event.once(on: .mainActor) { _ in
      onMain.append(isOnMainQueue())
      done.fulfill()
    }
    event.send(1)
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(onMain.values == [true])
  }
}
