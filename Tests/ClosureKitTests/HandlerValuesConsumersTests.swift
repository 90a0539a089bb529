import ClosureKitTestSupport
import Testing

@testable import ClosureKit

/// How many consumers wait on `values` for a value (white box: the tests start the next step once
/// a consumer is known to wait, never after some time).
func waitingConsumers<Element>(_ values: HandlerValues<Element>) -> Int {
  values.lifetime.storage.state.withLock { $0.waitingCount }
}

/// A task that takes values of `values` until it has `count` of them or the sequence ends, each
/// with a new iterator of its own, as a `for await` loop makes.
func consume<Element: Sendable>(_ values: HandlerValues<Element>, upTo count: Int) -> Task<[Element], Never> {
  Task {
    var received: [Element] = []
    for await value in values {
      received.append(value)
      if received.count == count { break }
    }
    return received
  }
}

/// Several consumers of one sequence, and iterators that are dropped: the cases of Swift's own
/// `AsyncStream` tests (`test/Concurrency/Runtime/async_stream.swift`, "finish behavior with
/// multiple consumers") and of `AsyncStream`'s semantics, on `Event.values` and `Observed.changes`.
@Suite struct HandlerValuesConsumersTests {
  @Test func theEndResumesEveryWaitingConsumer() async {
    var event: Event<Int>? = Event<Int>()
    let values = event!.values
    let first = consume(values, upTo: 10)
    #expect(await eventually { waitingConsumers(values) == 1 })
    let second = consume(values, upTo: 10)
    #expect(await eventually { waitingConsumers(values) == 2 })
    event = nil
    #expect(await first.value == [])
    #expect(await second.value == [])
  }

  @Test func theEndOfAnObservedBoxResumesEveryWaitingConsumer() async {
    var box: Observed<Int>? = Observed(0)
    let changes = box!.changes()
    let first = consume(changes, upTo: 10)
    #expect(await eventually { waitingConsumers(changes) == 1 })
    let second = consume(changes, upTo: 10)
    #expect(await eventually { waitingConsumers(changes) == 2 })
    box = nil
    #expect(await first.value.isEmpty)
    #expect(await second.value.isEmpty)
  }

  @Test func eachValueGoesToOneWaitingConsumerLongestWaitingFirst() async {
    let event = Event<Int>()
    let values = event.values
    let first = consume(values, upTo: 1)
    #expect(await eventually { waitingConsumers(values) == 1 })
    let second = consume(values, upTo: 1)
    #expect(await eventually { waitingConsumers(values) == 2 })
    event.send(1)
    event.send(2)
    #expect(await first.value == [1])
    #expect(await second.value == [2])
  }

  @Test func eachObservedChangeGoesToOneWaitingConsumer() async {
    let box = Observed(0)
    let changes = box.changes()
    let first = consume(changes, upTo: 1)
    #expect(await eventually { waitingConsumers(changes) == 1 })
    let second = consume(changes, upTo: 1)
    #expect(await eventually { waitingConsumers(changes) == 2 })
    box.value = 1
    box.value = 2
    #expect(await first.value.map(\.newValue) == [1])
    #expect(await second.value.map(\.newValue) == [2])
  }

  /// As on an `AsyncStream`, whose cancelled consumer terminates the stream.
  @Test func cancellingOneConsumerEndsTheSequenceForEveryConsumer() async {
    let event = Event<Int>()
    let values = event.values
    let first = consume(values, upTo: 10)
    #expect(await eventually { waitingConsumers(values) == 1 })
    let second = consume(values, upTo: 10)
    #expect(await eventually { waitingConsumers(values) == 2 })
    first.cancel()
    #expect(await first.value == [])
    #expect(await second.value == [])
    #expect(event.handlerCount == 0)
  }

  @Test func aLoopIteratedAgainAfterABreakGetsTheValuesTheFirstOneLeft() async {
    let event = Event<Int>()
    let values = event.values
    for value in 0..<10 { event.send(value) }
    var firstLoop: [Int] = []
    for await value in values {
      firstLoop.append(value)
      if firstLoop.count == 3 { break }
    }
    event.send(10)
    var secondLoop: [Int] = []
    for await value in values {
      secondLoop.append(value)
      if value == 10 { break }
    }
    #expect(firstLoop == [0, 1, 2])
    #expect(secondLoop == Array(3...10))
  }

  @Test func theValuesADroppedIteratorHeldGoToAConsumerAlreadyWaiting() async {
    let event = Event<Int>()
    let values = event.values
    var dropped: HandlerValues<Int>.Iterator? = values.makeAsyncIterator()
    for value in 0..<5 { event.send(value) }
    #expect(await dropped?.next() == 0)  // takes 0...4 into its buffer
    let waiting = Task {
      var received: [Int] = []
      for await value in values {
        received.append(value)
        if value == 5 { break }
      }
      return received
    }
    #expect(await eventually { waitingConsumers(values) == 1 })
    dropped = nil
    event.send(5)
    #expect(await waiting.value == [1, 2, 3, 4, 5])
  }
}
