import ClosureKit
import Testing

/// `values` and `values(bufferingPolicy:)`: order, buffering, cancellation and end.
@Suite struct EventValuesTests {
  @Test func valuesArriveInSendOrder() async {
    let event = Event<Int>()
    let stream = event.values
    for value in 0..<50 { event.send(value) }
    var received: [Int] = []
    for await value in stream {
      received.append(value)
      if received.count == 50 { break }
    }
    #expect(received == Array(0..<50))
  }

  @Test func bufferingNewestKeepsTheLastValues() async {
    let event = Event<Int>()
    let stream = event.values(bufferingPolicy: .bufferingNewest(2))
    for value in 0..<10 { event.send(value) }
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == 8)
    #expect(await iterator.next() == 9)
  }

  @Test func bufferingOldestKeepsTheFirstValues() async {
    let event = Event<Int>()
    let stream = event.values(bufferingPolicy: .bufferingOldest(2))
    for value in 0..<10 { event.send(value) }
    event.send(100)
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    #expect(await iterator.next() == 1)
  }

  @Test func cancellingTheConsumingTaskRemovesTheRegistration() async {
    let event = Event<Int>()
    let started = Recorder<Int>()
    let stream = event.values
    #expect(event.handlerCount == 1)
    let consumer = Task {
      for await value in stream { started.append(value) }
    }
    event.send(1)
    consumer.cancel()
    await consumer.value
    #expect(event.handlerCount == 0)
  }

  @Test func droppingTheSequenceRemovesTheRegistration() {
    let event = Event<Int>()
    do {
      let stream = event.values
      _ = stream
      #expect(event.handlerCount == 1)
    }
    #expect(event.handlerCount == 0)
  }

  @Test func theSequenceFinishesWhenTheEventIsDeallocated() async {
    var event: Event<Int>? = Event<Int>()
    let stream = event!.values
    event!.send(1)
    event = nil
    var received: [Int] = []
    for await value in stream { received.append(value) }
    #expect(received == [1])
  }
}
