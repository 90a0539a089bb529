import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Observation
import Testing

@testable import ClosureKit

// Models owned by one queue each: every read and write of a test happens on that queue.
// @unchecked Sendable: the tests touch them only on their owning queue (or before sharing them).
@Observable final class Customer: @unchecked Sendable {
  var name: String
  init(name: String) { self.name = name }
}

@Observable final class Order: @unchecked Sendable {
  var customer: Customer
  var count = 0
  init(customer: Customer = Customer(name: "A")) { self.customer = customer }
}

/// A model safe to write from any thread: its storage is behind a pthread mutex. (Not
/// `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see its synchronisation and reports
/// false races.) A test can let a write from another thread land in the middle of a read: the race
/// of a write made while an observation arms.
final class SharedCounter: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let storage = Locked(0)
  /// Run once, by the next read, after it has taken the value and before it returns.
  let interloper = Locked<(@Sendable () -> Void)?>(nil)
  /// How long after the start of its willSet the last write stored its value.
  let lastStoreAfter = Locked<Duration>(.zero)

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      let value = storage.withLock { $0 }
      let interloper = interloper.withLock { slot in
        defer { slot = nil }
        return slot
      }
      interloper?()
      return value
    }
    set {
      let start = ContinuousClock.now
      registrar.withMutation(of: self, keyPath: \.value) {
        storage.withLock { $0 = newValue }
        lastStoreAfter.withLock { $0 = ContinuousClock.now - start }
      }
    }
  }
}

@Suite struct ObservableObserveTests {
  typealias C = Change<Int>
  let queue = DispatchQueue(label: "model")

  /// Runs `body` on the model's queue and resumes when the hops it caused have run there too,
  /// without blocking the test's thread (one of the cooperative pool's).
  func onModelQueue(_ body: @escaping @Sendable () -> Void) async {
    await runAndWait(on: queue, body)
    await drain(queue)
  }

  @Test func observationContinuesAfterEveryChange() async {
    let order = Order()
    let seen = Recorder<C>()
    order.observe(\.count, options: [.old, .new], on: .queue(queue)) { seen.append($0) }
    for value in 1...3 { await onModelQueue { order.count = value } }
    #expect(seen.values == [C(oldValue: 0, newValue: 1), C(oldValue: 1, newValue: 2), C(oldValue: 2, newValue: 3)])
  }

  @MainActor @Test func priorIsTheWillSetMomentAndPostCarriesOldAndNew() async {
    let order = Order()
    let seen = Recorder<C>()
    let readInPrior = Recorder<Int>()
    let posted = Expectation()
    order.observe(\.count, options: [.prior, .old, .new]) { change in
      seen.append(change)
      if change.isPrior { readInPrior.append(order.count) } else { posted.fulfill() }
    }
    order.count = 7  // on the main actor: the post callback hops to the main queue
    #expect(await posted.wait(timeout: crossThreadDeadline))
    #expect(readInPrior.values == [0])
    #expect(seen.values == [C(oldValue: 0, isPrior: true), C(oldValue: 0, newValue: 7)])
  }

  @Test func initialReportsTheCurrentValue() {
    let order = Order()
    order.count = 3
    let seen = Recorder<C>()
    order.observe(\.count, options: [.initial, .new]) { seen.append($0) }
    #expect(seen.values == [C(newValue: 3)])
  }

  @Test func keyPathChainFollowsAReplacedIntermediateObject() async {
    let first = Customer(name: "A")
    let order = Order(customer: first)
    let seen = Recorder<Change<String>>()
    order.observe(\.customer.name, options: [.old, .new], on: .queue(queue)) { seen.append($0) }
    await onModelQueue { order.customer.name = "B" }
    await onModelQueue { order.customer = Customer(name: "C") }
    await onModelQueue { first.name = "ignored: no longer on the path" }
    await onModelQueue { order.customer.name = "D" }
    #expect(
      seen.values == [
        Change(oldValue: "A", newValue: "B"), Change(oldValue: "B", newValue: "C"),
        Change(oldValue: "C", newValue: "D"),
      ]
    )
  }

  @Test func observationStopsWhenTheObjectIsDeallocated() {
    weak var weakOrder: Order?
    let witness = CaptureWitness()
    var subscription: HandlerSubscription?
    do {
      let order = Order()
      weakOrder = order
      subscription = order.observe(\.count, witness.capturing { _ in })
      #expect(subscription?.isCancelled == false)
    }
    #expect(weakOrder == nil)
    #expect(witness.isReleased)
    #expect(subscription?.isCancelled == true)
  }

  @Test func cancelStopsTheObservationAndReleasesCaptures() async {
    let order = Order()
    let count = Counter()
    let witness = CaptureWitness()
    let subscription = order.observe(\.count, on: .queue(queue), witness.capturing { _ in count.increment() })
    await onModelQueue { order.count = 1 }
    subscription.cancel()
    await onModelQueue { order.count = 2 }
    await onModelQueue { order.count = 3 }
    #expect(count.value == 1)
    #expect(witness.isReleased)
    #expect(subscription.isCancelled)
  }

  @Test func ownerBoundObservationReceivesTheOwnerAndEndsWithIt() async {
    let order = Order()
    let seen = Recorder<String>()
    var owner: Tracked? = Tracked("screen")
    let subscription = order.observing(\.count).addHandler(owner: owner!, on: .queue(queue)) { owner, change in
      seen.append("\(owner.name) \(change.newValue!)")
    }
    await onModelQueue { order.count = 1 }
    owner = nil
    await onModelQueue { order.count = 2 }
    #expect(seen.values == ["screen 1"])
    #expect(subscription.isCancelled)
  }

  @Test func queueDeliveryRunsTheHandlerOnTheQueue() async {
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 42)
    let order = Order()
    let onQueue = Recorder<Bool>()
    let done = Expectation(count: 2)
    order.observe(\.count, options: [.prior, .new], on: .queue(queue)) { _ in
      onQueue.append(DispatchQueue.getSpecific(key: key) == 42)
      done.fulfill()
    }
    await runAndWait(on: queue) { order.count = 1 }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(onQueue.values == [true, true])
  }

  @Test func lastValueIsAlwaysDeliveredAfter100000WritesOnTheOwningQueue() async {
    let order = Order()
    let seen = Recorder<C>()
    let last = Expectation()
    order.observe(\.count, options: [.old, .new], on: .queue(queue)) { change in
      seen.append(change)
      if change.newValue == 100_000 { last.fulfill() }
    }
    queue.async {
      for value in 1...100_000 { order.count = value }
    }
    #expect(await last.wait(timeout: crossThreadDeadline))
    await drain(queue)
    let changes = seen.values
    // Never out of order, never twice, the last value last.
    #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.newValue! < $1.newValue! })
    #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
    #expect(changes.last?.newValue == 100_000)
  }

  @MainActor @Test func lastValueIsAlwaysDeliveredAfter100000WritesOnTheMainActor() async {
    let order = Order()
    let seen = Recorder<C>()
    let last = Expectation()
    order.observe(\.count, options: [.old, .new]) { change in
      seen.append(change)
      if change.newValue == 100_000 { last.fulfill() }
    }
    for value in 1...100_000 { order.count = value }
    #expect(await last.wait(timeout: crossThreadDeadline))
    #expect(seen.values == [C(oldValue: 0, newValue: 100_000)])
  }

  @Test func equalWritesOfAnEquatablePropertyAreNotReported() async {
    let order = Order()
    let count = Counter()
    order.observe(\.count, on: .queue(queue)) { _ in count.increment() }
    await onModelQueue { order.count = 0 }
    await onModelQueue { order.count += 1 }
    #expect(count.value == 1)
  }

  @MainActor @Test func changesSequenceYieldsAndFinishesWhenTheObjectIsDeallocated() async {
    var order: Order? = Order()
    let stream = order!.changes(of: \.count, options: [.initial, .new])
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.newValue == 0)
    order!.count = 5  // on the main actor, which owns the model here: the hop runs there
    #expect(await iterator.next()?.newValue == 5)
    order = nil
    #expect(await iterator.next() == nil)
  }

  @Test func aRegistrationWhoseOnChangeRunsAgainIsHandledOnce() async {
    // On Swift 6.3 a registration can be left behind and call onChange on every later write.
    let order = Order()
    let priors = Counter()
    let tracker = ObservableTracker(
      root: order,
      keyPath: \Order.count,
      options: [.prior],
      delivery: .queue(queue),
      owner: nil
    ) { change in
      if change.isPrior { priors.increment() }
    }
    let subscription = tracker.start()  // arm number 1
    let leftover = TrackingArm(tracker: tracker, id: 1)
    let stale = TrackingArm(tracker: tracker, id: 0)
    await runAndWait(on: queue) {
      leftover.fire()
      leftover.fire()
      leftover.fire()
      stale.fire()
    }
    await drain(queue)  // the hop has re-armed (arm number 2)
    await runAndWait(on: queue) { leftover.fire() }
    await drain(queue)
    #expect(priors.value == 1)
    subscription.cancel()
  }

  @Test func stressCrossThreadWritesNeverSnowballAndEndCleanly() async {
    let counter = SharedCounter()
    let calls = Counter()
    let writes = 20_000
    let subscriptions = (0..<4).map { index in
      counter.observe(\.value, options: [.prior, .old, .new], on: .queue(DispatchQueue(label: "o\(index)"))) { _ in
        calls.increment()
      }
    }
    // Two writers and one thread that observes and cancels, each on a thread of its own.
    #expect(
      await onOwnThreads(0..<3) { role in
        if role < 2 {
          for value in 0..<(writes / 2) { counter.value = value }
        } else {
          for _ in 0..<200 {
            let subscription = counter.observe(\.value) { _ in calls.increment() }
            subscription.cancel()
          }
        }
      })
    for subscription in subscriptions { subscription.cancel() }
    // Each write can cause at most one prior and one post per observation: no snowballing.
    #expect(calls.value <= 2 * 4 * writes)
    #expect(subscriptions.allSatisfy { $0.isCancelled })
  }

  /// A write from another thread that lands between the tracked read of a re-arm and the
  /// installation of its registration is not reported by that registration (Swift 6.3); the re-read
  /// after arming must see it, once writes from other threads have been seen.
  @Test(arguments: ["queue", "scheduled"])
  func aWriteLandingWhileAHopArmsIsDeliveredByTheReRead(delivery kind: String) async {
    let counter = SharedCounter()
    let hops = DispatchQueue(label: "hops")
    let delivery: Delivery = kind == "queue" ? .queue(hops) : .scheduled { job in hops.async(execute: job) }
    let last = Slot<Int>()
    let sawFinal = Expectation()
    let subscription = counter.observe(\.value, on: delivery) { change in
      last.value = change.newValue
      if change.newValue == 99 { sawFinal.fulfill() }
    }
    // The hop of this write (made on a thread of its own) arms again; its tracked read lets the
    // write of 99 land, from yet another thread, before the registration is installed.
    counter.interloper.withLock { slot in
      slot = { onNewThread { counter.value = 99 } }
    }
    // The hop runs once the writer of 1 has returned: its store has landed. (Before, under
    // ThreadSanitizer, the writer of 1 was once preempted between its willSet and its store past
    // the hop's grace period: the `queue` variant armed on the old value, the write of 99 landed,
    // and the late store of 1 overwrote it, so 1 was the model's last value, and the last one
    // delivered.)
    hops.suspend()
    await onNewThread { counter.value = 1 }
    hops.resume()
    let delivered = await sawFinal.wait(timeout: crossThreadDeadline)
    // Under each sanitizer, before thread identities were tokens, the `scheduled` variant missed
    // the write of 99: the writer of 1 (a thread that had ended) and the hop's Dispatch worker had
    // the same `pthread_self()` (under ThreadSanitizer every new thread reuses an ended one's), so
    // the hop took the write for one on its own thread and did not re-read after arming.
    #expect(delivered, "last delivered: \(String(describing: last.value)), model: \(counter.value)")
    subscription.cancel()
  }
}
