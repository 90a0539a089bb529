import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Foundation
import Testing

/// A fresh center and name per test, so tests running in parallel do not see each other's posts.
private func makeCenter() -> (NotificationCenter, Notification.Name) {
  (NotificationCenter(), Notification.Name("closurekit.test.\(UUID().uuidString)"))
}

/// Posts `name` on `center` while `queue` is suspended, runs `end`, then resumes the queue;
/// `false` if the queue has not drained by the deadline.
private func post(
  _ name: Notification.Name, on center: NotificationCenter, thenResume queue: DispatchQueue, _ end: () -> Void
) async -> Bool {
  center.post(name: name, object: nil)
  end()
  queue.resume()
  return await drained(queue)
}

@Suite struct NotificationCenterObserverTests {
  @Test func handlerReceivesEachPostOnThePostingThread() {
    let (center, name) = makeCenter()
    let received = Recorder<Int>()
    center.observing(name).addHandler { note in received.append(note.userInfo?["n"] as? Int ?? -1) }
    center.post(name: name, object: nil, userInfo: ["n": 1])
    center.post(name: name, object: nil, userInfo: ["n": 2])
    #expect(received.values == [1, 2])
  }

  @Test func cancelRemovesTheObserverAndReleasesTheHandler() {
    let (center, name) = makeCenter()
    let received = Recorder<Int>()
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    let subscription = center.observing(name).addHandler { [captured] _ in
      _ = captured
      received.append(1)
    }
    captured = nil
    center.post(name: name, object: nil)
    subscription.cancel()
    #expect(subscription.isCancelled)
    center.post(name: name, object: nil)
    #expect(received.values == [1])
    #expect(weakCaptured == nil)
  }

  @Test func centerIsNotKeptAliveByItsObservers() {
    var center: NotificationCenter? = NotificationCenter()
    weak let weakCenter = center
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    let subscription = center!.observing(Notification.Name("x")).addHandler { [captured] _ in _ = captured }
    center!.observing(Notification.Name("y")).addHandler(owner: captured!) { _, _ in }
    captured = nil
    center = nil
    #expect(weakCenter == nil)
    #expect(weakCaptured == nil)
    subscription.cancel()
  }

  @Test func ownerBoundQueuedDeliveryIsDroppedWhenTheOwnerDiesFirst() async {
    let (center, name) = makeCenter()
    let queue = DispatchQueue(label: "closurekit.notifications.owner")
    let received = Recorder<String>()
    queue.suspend()  // holds the queue without blocking a thread
    var owner: Tracked? = Tracked("owner")
    center.observing(name).addHandler(owner: owner!, on: .queue(queue)) { owner, _ in received.append(owner.name) }
    #expect(await post(name, on: center, thenResume: queue) { owner = nil })
    #expect(received.values.isEmpty)
  }

  @Test func droppedTokenDoesNotEndTheHandler() {
    let (center, name) = makeCenter()
    let received = Recorder<Int>()
    do { center.observing(name).addHandler { _ in received.append(1) } }
    center.post(name: name, object: nil)
    #expect(received.values == [1])
  }

  @Test func ownerIsPassedStrongAndTheObserverEndsWhenItDies() {
    let (center, name) = makeCenter()
    let received = Recorder<String>()
    var owner: Tracked? = Tracked("screen")
    weak let weakOwner = owner
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    let subscription = center.observing(name).addHandler(owner: owner!) { [captured] owner, _ in
      _ = captured
      received.append(owner.name)
    }
    captured = nil
    center.post(name: name, object: nil)
    owner = nil
    #expect(weakOwner == nil)
    center.post(name: name, object: nil)
    #expect(received.values == ["screen"])
    #expect(subscription.isCancelled)
    #expect(weakCaptured == nil)
  }

  @Test func objectFilterIsApplied() {
    let (center, name) = makeCenter()
    let sender = Tracked("sender")
    let received = Recorder<Int>()
    center.observing(name, object: sender).addHandler { _ in received.append(1) }
    center.post(name: name, object: Tracked("other"))
    center.post(name: name, object: sender)
    #expect(received.values == [1])
  }

  @Test func queuedDeliveryRunsOnTheQueue() async {
    let (center, name) = makeCenter()
    let queue = DispatchQueue(label: "closurekit.notifications")
    let done = Expectation()
    let onQueue = Recorder<Bool>()
    center.observing(name).addHandler(on: .queue(queue)) { _ in
      onQueue.append(DispatchQueue.getSpecific(key: queueKey) == "closurekit.notifications")
      done.fulfill()
    }
    queue.setSpecific(key: queueKey, value: "closurekit.notifications")
    center.post(name: name, object: nil)
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(onQueue.values == [true])
  }

  @Test func cancelBeforeAQueuedDeliveryStartsDropsIt() async {
    let (center, name) = makeCenter()
    let queue = DispatchQueue(label: "closurekit.notifications.blocked")
    let received = Recorder<Int>()
    queue.suspend()  // holds the queue without blocking a thread
    let subscription = center.observing(name).addHandler(on: .queue(queue)) { _ in received.append(1) }
    #expect(await post(name, on: center, thenResume: queue) { subscription.cancel() })
    #expect(received.values.isEmpty)
  }

  @Test func postsFromSeveralThreadsAreAllDelivered() {
    let (center, name) = makeCenter()
    let received = Recorder<Int>()
    let subscription = center.observing(name).addHandler { note in received.append(note.userInfo?["n"] as? Int ?? -1) }
    DispatchQueue.concurrentPerform(iterations: 400) { index in
      center.post(name: name, object: nil, userInfo: ["n": index])
    }
    subscription.cancel()
    #expect(received.values.sorted() == Array(0..<400))
  }

  @Test func cancelWhilePostingFromOtherThreadsStopsDeliveries() {
    let (center, name) = makeCenter()
    let received = Recorder<Int>()
    let subscription = center.observing(name).addHandler { _ in received.append(1) }
    DispatchQueue.concurrentPerform(iterations: 200) { index in
      if index == 100 { subscription.cancel() }
      center.post(name: name, object: nil)
    }
    let count = received.values.count
    center.post(name: name, object: nil)
    #expect(received.values.count == count)
    #expect(subscription.isCancelled)
  }

  @Test func handlerMayCancelItsOwnSubscription() {
    let (center, name) = makeCenter()
    let received = Recorder<Int>()
    let slot = Locked<HandlerSubscription?>(nil)
    let subscription = center.observing(name).addHandler { _ in
      received.append(1)
      slot.withLock { $0 }?.cancel()
    }
    slot.withLock { $0 = subscription }
    center.post(name: name, object: nil)
    center.post(name: name, object: nil)
    #expect(received.values == [1])
  }

  #if !canImport(Darwin)
    @Test func notificationsSequenceYieldsPostsInOrder() async {
      let (center, name) = makeCenter()
      let notes = center.notifications(named: name)
      center.post(name: name, object: nil, userInfo: ["n": 1])
      center.post(name: name, object: nil, userInfo: ["n": 2])
      var received: [Int] = []
      for await note in notes {
        received.append(note.userInfo?["n"] as? Int ?? -1)
        if received.count == 2 { break }
      }
      #expect(received == [1, 2])
    }

    @Test func notificationsSequenceReceivesPostsFromOtherThreads() async {
      let (center, name) = makeCenter()
      let notes = center.notifications(named: name)
      DispatchQueue.global().async {
        DispatchQueue.concurrentPerform(iterations: 50) { _ in center.post(name: name, object: nil) }
      }
      var count = 0
      for await _ in notes {
        count += 1
        if count == 50 { break }
      }
      #expect(count == 50)
    }

    @Test func endingTheIterationRemovesTheObserver() async {
      let (center, name) = makeCenter()
      var captured: Tracked? = Tracked()
      weak let weakCaptured = captured
      do {
        let notes = center.notifications(named: name, object: captured)
        center.post(name: name, object: captured)
        for await _ in notes { break }
      }
      captured = nil
      // The observer held `object` only as a filter; with it removed nothing else refers to it.
      #expect(weakCaptured == nil)
    }
  #endif
}

private let queueKey = DispatchSpecificKey<String>()
