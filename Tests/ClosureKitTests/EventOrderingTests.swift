import ClosureKit
import ClosureKitTestSupport
import Testing

/// Ordering and re-entrancy rules of DESIGN.md "Threading and delivery".
@Suite struct EventOrderingTests {
  @Test func immediateHandlersRunInRegistrationOrder() {
    let event = Event<Int>()
    let order = Recorder<String>()
    for name in ["a", "b", "c", "d"] {
      event.addHandler { value in order.append("\(name)\(value)") }
    }
    event.send(1)
    #expect(order.values == ["a1", "b1", "c1", "d1"])
  }

  @Test func aHandlerAddedDuringASendIsNotCalledByThatSend() {
    let event = Event<Int>()
    let order = Recorder<String>()
    event.once { _ in
      event.addHandler { value in order.append("late\(value)") }
    }
    event.addHandler { value in order.append("early\(value)") }
    event.send(1)
    #expect(order.values == ["early1"])
    event.send(2)
    #expect(order.values == ["early1", "early2", "late2"])
  }

  @Test func aHandlerCancelledDuringASendAndNotYetReachedIsNotCalled() {
    let event = Event<Int>()
    let order = Recorder<String>()
    let later = Slot<HandlerSubscription>()
    event.addHandler { _ in
      order.append("first")
      later.value?.cancel()
    }
    later.value = event.addHandler { _ in order.append("second") }
    event.send(1)
    #expect(order.values == ["first"])
  }

  @Test func aRecursiveSendIsDeliveredDepthFirst() {
    let event = Event<Int>()
    let order = Recorder<String>()
    event.addHandler { value in
      order.append("a\(value)")
      if value == 1 { event.send(2) }
    }
    event.addHandler { value in order.append("b\(value)") }
    event.send(1)
    #expect(order.values == ["a1", "a2", "b2", "b1"])
  }

  @Test func aHandlerCancellingItselfIsNotCalledAgainAndIsReleasedWhenTheSendReturns() {
    let event = Event<Int>()
    let count = Counter()
    weak var weakCaptured: Tracked?
    let token = Slot<HandlerSubscription>()
    do {
      let captured = Tracked()
      weakCaptured = captured
      token.value = event.addHandler { _ in
        _ = captured
        count.increment()
        token.value?.cancel()
      }
    }
    event.send(1)
    #expect(weakCaptured == nil)
    event.send(2)
    #expect(count.value == 1)
  }

  @Test func aHandlerMayAddCancelSendAndCountOnItsOwnEventWithoutDeadlock() {
    let event = Event<Int>()
    let count = Counter()
    event.addHandler { value in
      guard value < 3 else { return }
      let inner = event.addHandler { _ in count.increment() }
      _ = event.handlerCount
      event.send(value + 1)
      inner.cancel()
    }
    event.send(0)
    // send(3) reaches inner0...inner2 (3 calls); back in send(2) its snapshot still has inner0 and
    // inner1 (2 calls); back in send(1), inner0 (1 call).
    #expect(count.value == 6)
    #expect(event.handlerCount == 1)
  }

  @Test func sendOnAVoidEventNeedsNoArgument() {
    let event = Event<Void>()
    let count = Counter()
    event.addHandler { count.increment() }
    event.send()
    #expect(count.value == 1)
  }
}
