import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

@testable import ClosureKitSwiftUI

/// An upstream in the shape of Combine's subscription, for `Publisher.addHandler`'s sink.
final class FakeUpstream: UpstreamLink {
  private let state = Mutex((requested: 0, cancelled: 0))
  var requested: Int { state.withLock { $0.requested } }
  var cancelled: Int { state.withLock { $0.cancelled } }
  func requestUnlimited() { state.withLock { $0.requested += 1 } }
  func cancel() { state.withLock { $0.cancelled += 1 } }
}

@Suite struct HandlerSinkTests {
  @Test func theSinkRequestsEverythingAndRunsTheHandlerForEachValue() {
    let received = Recorder<Int>()
    let sink = HandlerSink<Int, FakeUpstream>(delivery: .immediate) { value in
      received.append(value)
      return true
    }
    let upstream = FakeUpstream()
    sink.subscribed(to: upstream)
    sink.receive(1)
    sink.receive(2)
    #expect(upstream.requested == 1)
    #expect(received.values == [1, 2])
  }

  @Test func droppingTheTokenDoesNotEndTheHandler() {
    let received = Recorder<Int>()
    let sink = HandlerSink<Int, FakeUpstream>(delivery: .immediate) { value in
      received.append(value)
      return true
    }
    _ = sink.makeToken()
    sink.subscribed(to: FakeUpstream())
    sink.receive(1)
    #expect(received.values == [1])
    #expect(!sink.isEnded)
  }

  @Test func cancellingTheTokenCancelsTheUpstreamAndReleasesTheHandler() {
    let upstream = FakeUpstream()
    weak var weakCapture: Tracked?
    let sink: HandlerSink<Int, FakeUpstream>
    do {
      let capture = Tracked()
      weakCapture = capture
      sink = HandlerSink(delivery: .immediate) { _ in
        withExtendedLifetime(capture) {}
        return true
      }
    }
    let token = sink.makeToken()
    sink.subscribed(to: upstream)
    token.cancel()
    #expect(upstream.cancelled == 1)
    #expect(weakCapture == nil)
    #expect(token.isCancelled)
  }

  @Test func aTokenCancelledBeforeTheSubscriptionArrivesCancelsIt() {
    let upstream = FakeUpstream()
    let sink = HandlerSink<Int, FakeUpstream>(delivery: .immediate) { _ in true }
    sink.makeToken().cancel()
    sink.subscribed(to: upstream)
    #expect(upstream.cancelled == 1)
    #expect(upstream.requested == 0)
  }

  @Test func aSecondSubscriptionIsCancelled() {
    let first = FakeUpstream()
    let second = FakeUpstream()
    let sink = HandlerSink<Int, FakeUpstream>(delivery: .immediate) { _ in true }
    sink.subscribed(to: first)
    sink.subscribed(to: second)
    #expect(first.cancelled == 0)
    #expect(second.cancelled == 1)
  }

  @Test func aValueThatFindsTheOwnerGoneEndsTheSink() {
    let upstream = FakeUpstream()
    let owner = Slot<Bool>()
    owner.value = true
    let sink = HandlerSink<Int, FakeUpstream>(delivery: .immediate) { _ in owner.value ?? false }
    sink.subscribed(to: upstream)
    sink.receive(1)
    #expect(!sink.isEnded)
    owner.value = nil
    sink.receive(2)
    #expect(sink.isEnded)
    #expect(upstream.cancelled == 1)
  }

  @Test func noQueuedDeliveryStartsAfterCancelReturns() async {
    let queue = DispatchQueue(label: "HandlerSinkTests.queue")
    let received = Counter()
    let sink = HandlerSink<Int, FakeUpstream>(delivery: .queue(queue)) { _ in
      received.increment()
      return true
    }
    let token = sink.makeToken()
    sink.subscribed(to: FakeUpstream())
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }  // holds the queue: the deliveries below wait behind it
    for value in 0..<10 { sink.receive(value) }
    token.cancel()
    gate.signal()
    #expect(await drained(queue))
    #expect(received.value == 0)
  }

  @Test func completionReleasesTheHandler() {
    weak var weakCapture: Tracked?
    let sink: HandlerSink<Int, FakeUpstream>
    do {
      let capture = Tracked()
      weakCapture = capture
      sink = HandlerSink(delivery: .immediate) { _ in
        withExtendedLifetime(capture) {}
        return true
      }
    }
    sink.subscribed(to: FakeUpstream())
    sink.completed()
    #expect(weakCapture == nil)
    #expect(sink.isEnded)
  }
}
