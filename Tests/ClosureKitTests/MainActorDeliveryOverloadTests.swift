import ClosureKit
import ClosureKitTesting
import Dispatch
import Testing

/// A main-actor screen whose methods the `@MainActor` handlers call directly: each call compiles
/// only in a main-actor closure, and asserts at run time that it runs on the main actor.
@MainActor final class OverloadScreen: Sendable {
  var log: [String] = []
  func note(_ entry: String) {
    MainActor.assertIsolated()
    log.append(entry)
  }
}

/// The `MainActorDelivery` overloads added so that every public API taking `on: Delivery` has one:
/// `Event.once`, `ClosureTimer.perform(after:)`, the stopped and owner-bound timers, `Observed`.
@Suite struct MainActorDeliveryOverloadTests {
  @Test @MainActor func onceRunsAMainActorHandlerOnceOnTheMainActor() async {
    let screen = OverloadScreen()
    let event = Event<Int>()
    let done = Expectation(count: 2)
    event.onMainActor.once { value in
      screen.note("once \(value)")
      done.fulfill()
    }
    event.onMainActor.once(owner: screen) { screen, value in
      screen.note("owner \(value)")
      done.fulfill()
    }
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
    let screen = OverloadScreen()
    let clock = ManualClock()
    let done = Expectation()
    let cancelled = ClosureTimer.perform(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor in
      screen.note("cancelled")
    }
    ClosureTimer.perform(after: .seconds(2), on: .mainActor, clock: clock) { @MainActor in
      screen.note("delayed")
      done.fulfill()
    }
    cancelled.cancel()
    DispatchQueue.global().async { clock.advance(by: .seconds(2)) }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(screen.log == ["delayed"])
    #expect(cancelled.isCancelled)
  }

  // The deprecated `MainActorDelivery` timer spellings (now `ClosureTimer.onMainActor`): kept working
  // for one release.
  @available(*, deprecated)
  @Test @MainActor func ownerAndStoppedTimersRunMainActorHandlersOnTheMainActor() async {
    let screen = OverloadScreen()
    let clock = ManualClock()
    let done = Expectation(count: 6)
    ClosureTimer.schedule(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) { @MainActor screen, _ in
      screen.note("owner once")
      done.fulfill()
    }
    ClosureTimer.schedule(every: .seconds(1), owner: screen, repeatCount: 1, on: .mainActor, clock: clock) {
      @MainActor screen, _ in
      screen.note("owner every")
      done.fulfill()
    }
    let once = ClosureTimer(after: .seconds(1), on: .mainActor, clock: clock) { @MainActor _ in
      screen.note("stopped once")
      done.fulfill()
    }
    let every = ClosureTimer(every: .seconds(1), repeatCount: 1, on: .mainActor, clock: clock) { @MainActor _ in
      screen.note("stopped every")
      done.fulfill()
    }
    let ownedOnce = ClosureTimer(after: .seconds(1), owner: screen, on: .mainActor, clock: clock) {
      @MainActor screen, _ in
      screen.note("stopped owner once")
      done.fulfill()
    }
    let ownedEvery = ClosureTimer(every: .seconds(1), owner: screen, repeatCount: 1, on: .mainActor, clock: clock) {
      @MainActor screen, _ in
      screen.note("stopped owner every")
      done.fulfill()
    }
    once.start()
    every.start()
    ownedOnce.start()
    ownedEvery.start()
    DispatchQueue.global().async { clock.advance(by: .seconds(1)) }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(
      Set(screen.log) == [
        "owner once", "owner every", "stopped once", "stopped every", "stopped owner once", "stopped owner every",
      ])
  }

  @Test @MainActor func observedRunsMainActorHandlersOnTheMainActor() async {
    let screen = OverloadScreen()
    let volume = Observed(1)
    let done = Expectation(count: 3)
    volume.observing([.initial, .new]).onMainActor.addHandler { change in
      screen.note("plain \(change.newValue ?? 0)")
      done.fulfill()
    }
    volume.observing([.new]).onMainActor.addHandler(owner: screen) { screen, change in
      screen.note("owner \(change.newValue ?? 0)")
      done.fulfill()
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
