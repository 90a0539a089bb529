import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Synchronization
import Testing

@testable import ClosureKitSwiftUI

/// A subscriber in the shape Combine gives one (`receive` returns more demand), for the publisher's
/// demand logic, which runs here without Combine.
final class RecordingSink<Input: Sendable>: DemandSink, Sendable {
  private let state = Mutex<(values: [Input], completions: Int, concurrent: Int, maxConcurrent: Int)>(
    ([], 0, 0, 0)
  )
  /// The demand each `receive` returns.
  let more: Int

  init(more: Int = 0) {
    self.more = more
  }

  var values: [Input] { state.withLock { $0.values } }
  var completions: Int { state.withLock { $0.completions } }
  var maxConcurrent: Int { state.withLock { $0.maxConcurrent } }

  func receive(_ input: Input) -> Int {
    state.withLock {
      $0.concurrent += 1
      $0.maxConcurrent = max($0.maxConcurrent, $0.concurrent)
      $0.values.append(input)
    }
    state.withLock { $0.concurrent -= 1 }
    return more
  }

  func receiveCompletion() {
    state.withLock { $0.completions += 1 }
  }
}

@Suite struct PublisherDemandTests {
  private func subscribe(
    _ event: Event<Int>,
    sink: RecordingSink<Int>,
    policy: DemandBufferingPolicy = .unbounded
  ) -> DemandSubscription<Event<Int>> {
    let subscription = DemandSubscription<Event<Int>>(sink: sink, policy: policy)
    subscription.start(on: event)
    return subscription
  }

  @Test func aSubscriberThatAskedForOneGetsOne() {
    let event = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = subscribe(event, sink: sink)
    subscription.request(1)
    event.send(1)
    event.send(2)
    event.send(3)
    #expect(sink.values == [1])
    #expect(subscription.bufferedCount == 2)
    subscription.request(1)
    #expect(sink.values == [1, 2])
  }

  @Test func valuesSentBeforeAnyDemandAreBufferedAndDeliveredInOrder() {
    let event = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = subscribe(event, sink: sink)
    for value in 1...5 { event.send(value) }
    #expect(sink.values.isEmpty)
    subscription.request(Int.max)
    #expect(sink.values == [1, 2, 3, 4, 5])
    event.send(6)
    #expect(sink.values == [1, 2, 3, 4, 5, 6])
  }

  @Test func demandReturnedByReceiveIsHonoured() {
    let event = Event<Int>()
    let sink = RecordingSink<Int>(more: 1)
    let subscription = subscribe(event, sink: sink)
    for value in 1...3 { event.send(value) }
    subscription.request(1)  // each delivery asks for one more: the whole buffer drains
    #expect(sink.values == [1, 2, 3])
  }

  @Test func bufferingNewestKeepsTheNewestAndCountsTheDropped() {
    let event = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = subscribe(event, sink: sink, policy: .bufferingNewest(2))
    for value in 1...5 { event.send(value) }
    subscription.request(10)
    #expect(sink.values == [4, 5])
    #expect(subscription.droppedCount == 3)
  }

  @Test func bufferingOldestKeepsTheFirst() {
    let event = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = subscribe(event, sink: sink, policy: .bufferingOldest(2))
    for value in 1...5 { event.send(value) }
    subscription.request(10)
    #expect(sink.values == [1, 2])
  }

  @Test func cancelEndsTheRegistrationAndNothingIsDeliveredAfterIt() async {
    let event = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = subscribe(event, sink: sink)
    subscription.request(Int.max)
    event.send(1)
    #expect(event.handlerCount == 1)
    subscription.cancel()
    #expect(event.handlerCount == 0)
    event.send(2)
    subscription.request(1)
    #expect(sink.values == [1])
    #expect(sink.completions == 0)
  }

  @Test func cancelBeforeStartEndsTheRegistrationAtOnce() {
    let event = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = DemandSubscription<Event<Int>>(sink: sink, policy: .unbounded)
    subscription.cancel()
    subscription.start(on: event)
    #expect(event.handlerCount == 0)
  }

  @Test func theSourceEndingDeliversTheBufferThenFinishes() {
    var event: Event<Int>? = Event<Int>()
    let sink = RecordingSink<Int>()
    let subscription = subscribe(event!, sink: sink)
    event?.send(1)
    event?.send(2)
    event = nil
    #expect(sink.completions == 0)  // two values wait for demand: not finished yet
    subscription.request(1)
    #expect(sink.values == [1])
    #expect(sink.completions == 0)
    subscription.request(1)
    #expect(sink.values == [1, 2])
    #expect(sink.completions == 1)
    #expect(subscription.isTerminated)
  }

  @Test func cancellingReleasesTheSinkAndTheBuffer() {
    let event = Event<Tracked>()
    weak var weakSink: RecordingSink<Tracked>?
    weak var weakValue: Tracked?
    let subscription: DemandSubscription<Event<Tracked>>
    do {
      let sink = RecordingSink<Tracked>()
      weakSink = sink
      subscription = DemandSubscription<Event<Tracked>>(sink: sink, policy: .unbounded)
      subscription.start(on: event)
      let value = Tracked()
      weakValue = value
      event.send(value)
    }
    #expect(weakValue != nil)
    subscription.cancel()
    #expect(weakSink == nil)
    #expect(weakValue == nil)
  }

  @Test(.heavy) func sendersOnSeveralThreadsNeverCallTheSinkConcurrentlyAndLoseNothing() async {
    let event = Event<Int>()
    let sink = RecordingSink<Int>(more: 1)
    let subscription = subscribe(event, sink: sink)
    subscription.request(1)
    let perThread = 2_000
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for index in 0..<perThread { event.send(thread * perThread + index) }
        }
      }
    }
    #expect(sink.values.count == 4 * perThread)
    #expect(Set(sink.values).count == 4 * perThread)
    #expect(sink.maxConcurrent == 1)
    withExtendedLifetime(subscription) {}
  }

  @Test func theStateKeepsItsInvariantsThroughEveryTransition() {
    var state = PublisherDemandState<Int, Int>(sink: 0, policy: .bufferingNewest(3))
    var generator = SeededGenerator(seed: 7)
    var delivered: [Int] = []
    var next = 0
    for _ in 0..<5_000 {
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        next += 1
        if case .deliver(let value, _) = state.receive(next) {
          delivered.append(value)
          var step = state.delivered(adding: 0)
          while case .deliver(let value, _) = step {
            delivered.append(value)
            step = state.delivered(adding: 0)
          }
        }
      case 1:
        if state.request(Int.random(in: 1...3, using: &generator)) {
          var step = state.next()
          while case .deliver(let value, _) = step {
            delivered.append(value)
            step = state.delivered(adding: 0)
          }
        }
      default:
        break
      }
      #expect(state.verifyInvariants())
      #expect(!state.isDelivering)
    }
    #expect(delivered == delivered.sorted())
    #expect(delivered.count + state.bufferedCount + state.droppedCount == next)
  }
}
