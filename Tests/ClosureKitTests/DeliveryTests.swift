import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

/// Where handlers run: queue, main actor and custom deliveries, and cancellation of queued work.
@Suite struct DeliveryTests {
  @Test func queueDeliveryIsFIFOPerHandler() async {
    let queue = DispatchQueue(label: "fifo")
    let event = Event<Int>()
    let values = Recorder<Int>()
    let done = Expectation(count: 100)
    event.addHandler(on: .queue(queue)) { value in
      values.append(value)
      done.fulfill()
    }
    for value in 0..<100 { event.send(value) }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(values.values == Array(0..<100))
  }

  @Test func queueDeliveryRunsOnTheQueue() async {
    let queue = DispatchQueue(label: "target")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 42)
    let event = Event<Int>()
    let seen = Recorder<Int?>()
    let done = Expectation()
    event.addHandler(on: .queue(queue)) { _ in
      seen.append(DispatchQueue.getSpecific(key: key))
      done.fulfill()
    }
    event.send(1)
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(seen.values == [42])
  }

  @Test func cancelDropsQueuedDeliveriesThatHaveNotStarted() async {
    let queue = DispatchQueue(label: "suspended")
    queue.suspend()
    let event = Event<Int>()
    let count = Counter()
    let subscription = event.addHandler(on: .queue(queue)) { _ in count.increment() }
    event.send(1)
    event.send(2)
    subscription.cancel()
    queue.resume()
    #expect(await drained(queue))
    #expect(count.value == 0)
  }

  @Test func queuedOnceRunsExactlyOnce() async {
    let queue = DispatchQueue(label: "once")
    let event = Event<Int>()
    let values = Recorder<Int>()
    let subscription = event.once(on: .queue(queue)) { values.append($0) }
    event.send(1)
    event.send(2)
    #expect(await drained(queue))
    #expect(values.values == [1])
    #expect(subscription.isCancelled)
    #expect(event.handlerCount == 0)
  }

  @Test func queuedOwnerBoundHandlerDoesNotRunAfterTheOwnerIsGone() async {
    let queue = DispatchQueue(label: "owner")
    queue.suspend()
    let event = Event<Int>()
    let count = Counter()
    var owner: Tracked? = Tracked()
    event.addHandler(owner: owner!, on: .queue(queue)) { _, _ in count.increment() }
    event.send(1)
    owner = nil
    queue.resume()
    #expect(await drained(queue))
    #expect(count.value == 0)
  }

  @Test @MainActor func mainActorDeliveryRunsOnTheMainActor() async {
    let event = Event<Int>()
    let values = Recorder<Int>()
    let done = Expectation(count: 2)
    event.addHandler(on: .mainActor) { value in
      MainActor.assertIsolated()
      values.append(value)
      done.fulfill()
    }
    DispatchQueue.global().async { event.send(1) }
    event.send(2)
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(Set(values.values) == [1, 2])
  }

  @Test @MainActor func mainActorHandlerOverloadIsIsolatedToTheMainActor() async {
    final class Screen: Sendable {}
    let event = Event<String>()
    let titles = Recorder<String>()
    let done = Expectation(count: 2)
    let screen = Screen()
    event.onMainActor.addHandler { title in
      titles.append("plain \(title)")
      done.fulfill()
    }
    event.onMainActor.addHandler(owner: screen) { _, title in
      titles.append("owner \(title)")
      done.fulfill()
    }
    DispatchQueue.global().async { event.send("a") }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(titles.values == ["plain a", "owner a"])
  }

  @Test func scheduledDeliveryUsesTheGivenScheduler() async {
    let jobs = Recorder<String>()
    let queue = DispatchQueue(label: "custom")
    let event = Event<Int>()
    let done = Expectation()
    let delivery = Delivery.scheduled { job in
      jobs.append("scheduled")
      queue.async(execute: job)
    }
    event.addHandler(on: delivery) { _ in done.fulfill() }
    event.send(1)
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(jobs.values == ["scheduled"])
  }
}
