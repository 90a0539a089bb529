import ClosureKit
import ClosureKitTestSupport
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

/// `values`' batch hand-over: a consumer that fell behind takes what waits at once, in order.
@Suite struct EventValuesBatchTests {
  @Test func aConsumerThatFellBehindGetsEveryValueInOrderAcrossBatches() async {
    let event = Event<Int>()
    var iterator = event.values.makeAsyncIterator()
    for value in 0..<100 { event.send(value) }
    var received: [Int] = []
    for _ in 0..<50 { received.append(await iterator.next()!) }
    for value in 100..<200 { event.send(value) }  // arrive while 50 are still in the iterator's buffer
    for _ in 0..<150 { received.append(await iterator.next()!) }
    #expect(received == Array(0..<200))
  }

  @Test func valuesSentFromAnotherThreadWhileTheConsumerRunsArriveInOrder() async {
    let event = Event<Int>()
    let values = event.values
    onOwnThread {
      for value in 0..<20_000 { event.send(value) }
    }
    var expected = 0
    var inOrder = true
    for await value in values {
      if value != expected { inOrder = false }
      expected += 1
      if expected == 20_000 { break }
    }
    #expect(inOrder)
  }

  @Test func theBufferedValuesArriveBeforeTheEndWhenTheEventIsDeallocated() async {
    var event: Event<Int>? = Event<Int>()
    var iterator = event!.values.makeAsyncIterator()
    for value in 0..<10 { event!.send(value) }
    #expect(await iterator.next() == 0)
    event!.send(10)
    event = nil
    var rest: [Int] = []
    while let value = await iterator.next() { rest.append(value) }
    #expect(rest == Array(1...10))
  }

  @Test func droppingTheIteratorAndTheSequenceRemovesTheRegistration() async {
    let event = Event<Int>()
    do {
      var iterator = event.values.makeAsyncIterator()
      event.send(1)
      event.send(2)
      #expect(await iterator.next() == 1)
      #expect(event.handlerCount == 1)
    }
    #expect(event.handlerCount == 0)
  }

  @Test func aWaitingConsumerIsResumedByTheNextSend() async {
    let event = Event<Int>()
    let values = event.values
    let consumer = Task {
      var received: [Int] = []
      for await value in values {
        received.append(value)
        if received.count == 3 { break }
      }
      return received
    }
    for value in 0..<3 {
      await Task.yield()  // the consumer may be waiting by now, or not: either way it gets the value
      event.send(value)
    }
    #expect(await consumer.value == [0, 1, 2])
  }
}
