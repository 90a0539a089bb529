import ClosureKitTestSupport
import Testing

@testable import ClosureKit

/// The single-handler fast path (`SingleHandler.swift`), which a send to an `Event` with one
/// handler and a write to an `Observed` box with one observer both take: the same cancel guarantee
/// as every other path (DESIGN.md, threading: after `cancel()` returns, no delivery starts), and
/// the registry's box never outlives its entry.
///
/// The race is made on purpose: `RaceWindow` runs the cancel on the delivering thread right where
/// another thread's cancel could land, after the delivery took the box and released the lock and
/// before the call (debug builds, where `swift test` runs).
@Suite struct SingleHandlerFastPathTests {
  @Test func aSendDoesNotCallItsSingleHandlerOnceACancelHasReturned() {
    let event = Event<Int>()
    let calls = Recorder<Int>()
    let token = event.addHandler { calls.append($0) }
    event.send(1)  // makes the box
    RaceWindow.at(.singleHandlerTaken, run: { token.cancel() }) {
      event.send(2)
    }
    event.send(3)
    #expect(calls.values == [1])
    #expect(event.list.verifyInvariants())
  }

  @Test func aWriteDoesNotCallItsSingleObserverOnceACancelHasReturned() {
    let box = Observed(0)
    let seen = Recorder<Int>()
    let token = box.observe { seen.append($0.newValue!) }
    box.value = 1  // makes the box
    RaceWindow.at(.singleHandlerTaken, run: { token.cancel() }) {
      box.value = 2
    }
    box.value = 3
    #expect(seen.values == [1])
    #expect(box.storage.verifyObservedInvariants())
  }

  /// The window is real: with no cancel in it, the hook runs and the call follows (so the tests
  /// above fail if the call stops re-checking its node, or stops going through the box).
  @Test func theHookRunsBetweenTakingTheBoxAndTheCall() {
    let event = Event<Int>()
    let order = Recorder<String>()
    event.addHandler { order.append("call \($0)") }
    event.send(1)
    RaceWindow.at(.singleHandlerTaken, run: { order.append("window") }) {
      event.send(2)
    }
    #expect(order.values == ["call 1", "window", "call 2"])
  }

  /// A cancelled single handler's captures go when its cancel returns: the box that sends took
  /// (a copy of the handler) is dropped with the entry.
  @Test func theBoxDoesNotKeepACancelledHandlersCaptures() {
    let event = Event<Int>()
    let witness = CaptureWitness()
    let token = event.addHandler(witness.capturing { (_: Int) in })
    event.send(1)
    token.cancel()
    #expect(witness.isReleased)

    let box = Observed(0)
    let observerWitness = CaptureWitness()
    let observer = box.observe(observerWitness.capturing { (_: Change<Int>) in })
    box.value = 1
    observer.cancel()
    #expect(observerWitness.isReleased)
  }

  /// Every change of the registry drops the box: a second handler is called by the next send, and
  /// the first one alone again once the second is cancelled.
  @Test func aChangeOfTheHandlersDropsTheBox() {
    let event = Event<Int>()
    let calls = Recorder<String>()
    event.addHandler { calls.append("first \($0)") }
    event.send(1)
    let second = event.addHandler { calls.append("second \($0)") }
    #expect(event.list.verifyInvariants())
    event.send(2)
    second.cancel()
    event.send(3)
    #expect(calls.values == ["first 1", "first 2", "second 2", "first 3"])
    #expect(event.list.verifyInvariants())
  }
}
