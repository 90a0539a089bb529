import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Observation
import Testing

@testable import ClosureKit

// Main-actor models: their key paths are not `Sendable`, so `observe` takes the main-actor path.
@MainActor @Observable final class MainActorCounter {
  var count = 0
  var label = "a"
}

@MainActor @Observable final class Screen {
  var counter = MainActorCounter()
  /// A thread-safe model along the chain: the only way a main-actor observation sees a write made
  /// off the main actor.
  let shared = SharedCounter()
  /// A thread-safe model whose reads can let a write from another thread land mid-read.
  let racing = SharedCounter()
}

/// An owner for owner binding.
final class ScreenOwner: Sendable {}

@MainActor @Suite struct MainActorObservableTests {
  typealias C = Change<Int>

  @Test func observationContinuesAfterEveryChange() async {
    let model = MainActorCounter()
    let seen = Recorder<C>()
    model.observe(\.count, options: [.old, .new]) { seen.append($0) }
    for value in 1...3 {
      model.count = value
      await drainMainQueue()
    }
    #expect(seen.values == [C(oldValue: 0, newValue: 1), C(oldValue: 1, newValue: 2), C(oldValue: 2, newValue: 3)])
  }

  @Test(
    arguments: [
      ([.new], [C(newValue: 1)]),
      ([.old], [C(oldValue: 0)]),
      ([.old, .new], [C(oldValue: 0, newValue: 1)]),
      ([.initial, .new], [C(newValue: 0), C(newValue: 1)]),
      ([.initial, .old, .new], [C(newValue: 0), C(oldValue: 0, newValue: 1)]),
      ([.prior], [C(isPrior: true), C()]),
      ([.prior, .old, .new], [C(oldValue: 0, isPrior: true), C(oldValue: 0, newValue: 1)]),
      ([.initial, .prior, .old, .new], [C(newValue: 0), C(oldValue: 0, isPrior: true), C(oldValue: 0, newValue: 1)]),
    ] as [(ObservationOptions, [C])])
  func optionsDeliverTheKVOFields(options: ObservationOptions, expected: [C]) async {
    let model = MainActorCounter()
    let seen = Recorder<C>()
    model.observe(\.count, options: options) { seen.append($0) }
    model.count = 1
    await drainMainQueue()
    #expect(seen.values == expected)
  }

  @Test func initialAndPriorRunSynchronouslyOnTheMainActorAndPriorSeesTheOldValue() async {
    let model = MainActorCounter()
    let seen = Recorder<C>()
    let readInPrior = Recorder<Int>()
    model.observe(\.count, options: [.initial, .prior, .old, .new]) { change in
      // Immediate delivery runs on the main actor: the model may be read here.
      MainActor.assumeIsolated {
        if change.isPrior { readInPrior.append(model.count) }
      }
      seen.append(change)
    }
    #expect(seen.values == [C(newValue: 0)])
    model.count = 7
    #expect(seen.values == [C(newValue: 0), C(oldValue: 0, isPrior: true)])
    #expect(readInPrior.values == [0])
    await drainMainQueue()
    #expect(seen.values.last == C(oldValue: 0, newValue: 7))
  }

  @Test func lastValueIsAlwaysDeliveredAfter10000WritesOnTheMainActor() async {
    let model = MainActorCounter()
    let seen = Recorder<C>()
    model.observe(\.count, options: [.prior, .old, .new]) { seen.append($0) }
    for value in 1...10_000 { model.count = value }
    await drainMainQueue()
    #expect(seen.values == [C(oldValue: 0, isPrior: true), C(oldValue: 0, newValue: 10_000)])
    model.count = 10_001
    await drainMainQueue()
    #expect(seen.values.last == C(oldValue: 10_000, newValue: 10_001))
  }

  @Test func observationStopsWhenTheObjectIsDeallocated() async {
    var model: MainActorCounter? = MainActorCounter()
    weak let weakModel = model
    weak var weakTracked: Tracked?
    let seen = Recorder<C>()
    let token: HandlerSubscription
    do {
      let tracked = Tracked()
      weakTracked = tracked
      token = model!.observe(\.count) { [tracked] change in
        _ = tracked
        seen.append(change)
      }
    }
    model!.count = 1
    await drainMainQueue()
    #expect(seen.values == [C(newValue: 1)])
    model = nil
    #expect(weakModel == nil)
    #expect(token.isCancelled)
    #expect(weakTracked == nil)  // the handler and its captures are released
  }

  @Test func theObservationDoesNotRetainTheObject() {
    var model: MainActorCounter? = MainActorCounter()
    weak let weakModel = model
    let token = model!.observe(\.count, options: [.initial]) { _ in }
    model = nil
    #expect(weakModel == nil)
    #expect(token.isCancelled)
  }

  @Test func cancelStopsDeliveriesIncludingAQueuedOne() async {
    let model = MainActorCounter()
    let seen = Recorder<C>()
    let token = model.observe(\.count, options: [.prior, .new], on: .mainActor) { seen.append($0) }
    model.count = 1  // the prior callback is queued on the main queue, not run yet
    token.cancel()
    #expect(token.isCancelled)
    await drainMainQueue()
    model.count = 2
    await drainMainQueue()
    #expect(seen.values.isEmpty)
  }

  @Test func ownerBindingPassesTheOwnerAndEndsWithIt() async {
    let model = MainActorCounter()
    var owner: ScreenOwner? = ScreenOwner()
    weak let weakOwner = owner
    let seen = Recorder<C>()
    let sawOwner = Counter()
    let token = model.observing(\.count, options: [.new]).addHandler(owner: owner!) { owner, change in
      _ = owner
      sawOwner.increment()
      seen.append(change)
    }
    model.count = 1
    await drainMainQueue()
    #expect(seen.values == [C(newValue: 1)])
    #expect(sawOwner.value == 1)
    owner = nil
    #expect(weakOwner == nil)
    #expect(token.isCancelled)
    model.count = 2
    await drainMainQueue()
    #expect(seen.values == [C(newValue: 1)])
  }

  @Test func queueDeliveryRunsOnTheQueueWithTheValueReadOnTheMainActor() async {
    let queue = DispatchQueue(label: "delivery")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let seen = Recorder<C>()
    let onQueue = Recorder<Bool>()
    let done = Expectation()
    let model = MainActorCounter()
    model.observe(\.count, options: [.old, .new], on: .queue(queue)) { change in
      onQueue.append(DispatchQueue.getSpecific(key: key) ?? false)
      seen.append(change)
      done.fulfill()
    }
    model.count = 3
    #expect(await done.wait(timeout: crossThreadDeadline))
    await drain(queue)
    #expect(seen.values == [C(oldValue: 0, newValue: 3)])
    #expect(onQueue.values == [true])
  }

  @Test func aChainFollowsAReplacedIntermediateObject() async {
    let screen = Screen()
    let old = screen.counter
    let seen = Recorder<C>()
    screen.observe(\.counter.count, options: [.old, .new]) { seen.append($0) }
    let replacement = MainActorCounter()
    replacement.count = 5
    screen.counter = replacement
    await drainMainQueue()
    old.count = 100  // no longer on the path
    await drainMainQueue()
    replacement.count = 6
    await drainMainQueue()
    #expect(seen.values == [C(oldValue: 0, newValue: 5), C(oldValue: 5, newValue: 6)])
  }

  @Test func aWriteOffTheMainActorAlongTheChainIsReportedOnTheMainActor() async {
    let screen = Screen()
    let seen = Recorder<C>()
    let onMain = Recorder<Bool>()
    let posted = Expectation()
    screen.observe(\.shared.value, options: [.prior, .old, .new]) { change in
      onMain.append(MainQueueCheck.isOnMainQueue)
      seen.append(change)
      if change.newValue == 9 { posted.fulfill() }
    }
    let shared = screen.shared
    let stored = Expectation()
    DispatchQueue.global().async {
      shared.value = 9
      stored.fulfill()
    }
    let delivered = await posted.wait(timeout: crossThreadDeadline)
    #expect(await stored.wait(timeout: crossThreadDeadline))
    // The prior change first and 9 last. A writer preempted inside the setter past the hop's
    // re-read adds a post change that still carries 0 (caught by a re-check: tested by
    // `ObservableLateStoreTests`); the store is delivered when it lands within 4 s of its willSet.
    if shared.lastStoreAfter.withLock({ $0 }) < .seconds(4) {
      #expect(delivered)
      #expect(seen.values.first == C(oldValue: 0, isPrior: true))
      #expect(seen.values.last == C(oldValue: 0, newValue: 9))
    }
    #expect(onMain.values.allSatisfy { $0 })
  }

  @Test func changesSequenceYieldsAndFinishesWhenTheObjectIsDeallocated() async {
    var model: MainActorCounter? = MainActorCounter()
    let stream = model!.changes(of: \.count, options: [.initial, .new])
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.newValue == 0)
    model!.count = 5
    #expect(await iterator.next()?.newValue == 5)
    model = nil
    #expect(await iterator.next() == nil)
  }

  @Test func aSendableModelObservedFromTheMainActorKeepsTheNonisolatedPath() async {
    // A Sendable key path of a Sendable model still selects the nonisolated overload: its prior
    // callback runs in the willSet on the writing queue (the main-actor path would hop to main).
    let order = Order()
    let queue = DispatchQueue(label: "model")
    let priors = Recorder<Bool>()
    order.observe(\.count, options: [.prior], on: .queue(queue)) { change in
      if change.isPrior { priors.append(true) }
    }
    await runAndWait(on: queue) { order.count = 1 }
    await drain(queue)
    #expect(priors.values == [true])
  }

  /// Every change of a long chain (each write made by the delivery of the previous change) costs the
  /// same: the handler was once read through a `Locked` of a function type, which wrapped it in two
  /// more reabstraction thunks per read, so the n-th change ran through 2n thunks (quadratic time,
  /// and a stack overflow well before 100,000 changes).
  @Test(.heavy) func aLongChainOfChangesCostsTheSamePerChange() async {
    let model = MainActorCounter()
    let changes = stressRounds(100_000)
    let reachedTheEnd = Expectation()
    let subscription = model.observe(\.count) { change in
      MainActor.assumeIsolated {
        let value = change.newValue!
        if value == changes { reachedTheEnd.fulfill() } else { model.count = value + 1 }
      }
    }
    model.count = 1
    #expect(await reachedTheEnd.wait(timeout: crossThreadDeadline))
    subscription.cancel()
  }

  /// As for the nonisolated path: once a write from off the main actor was seen, a write from
  /// another thread that lands while a hop arms is delivered by the re-read after arming.
  @Test func aWriteLandingWhileAHopArmsIsDeliveredByTheReRead() async {
    let screen = Screen()
    let racing = screen.racing
    let sawFinal = Expectation()
    let subscription = screen.observe(\.racing.value) { change in
      if change.newValue == 99 { sawFinal.fulfill() }
    }
    racing.interloper.withLock { slot in
      slot = { onNewThread { racing.value = 99 } }
    }
    // Joined on the main thread (not a thread of the cooperative pool): the hop, on the main queue,
    // runs once the writer of 1 has returned and its store has landed. With the main actor free
    // meanwhile, a writer preempted between its willSet and its store let the hop arm on the old
    // value, and its late store of 1 overwrote the write of 99 (2 of 50 ThreadSanitizer runs): the
    // documented best-effort gap, which `aWriteOffTheMainActorAlongTheChainIsReportedOnTheMainActor`
    // records, not what this test is about.
    onNewThreadJoined { racing.value = 1 }
    #expect(await sawFinal.wait(timeout: crossThreadDeadline))
    subscription.cancel()
  }
}
