import ClosureKit
import ClosureKitTesting
import Dispatch
import Testing

/// A class with a wrapped property, as users write it.
final class Player: @unchecked Sendable {
  // @unchecked Sendable: `_score` is never reassigned; the box itself is thread-safe.
  @Observed var score = 0
}

@Suite struct ObservedTests {
  typealias C = Change<Int>

  /// Writing 1 -> 2 with each of the 16 option sets: what KVO sends, in order.
  static let table: [(ObservationOptions, [C])] = [
    ([], [C()]),
    ([.new], [C(newValue: 2)]),
    ([.old], [C(oldValue: 1)]),
    ([.old, .new], [C(oldValue: 1, newValue: 2)]),
    ([.initial], [C(), C()]),
    ([.initial, .new], [C(newValue: 1), C(newValue: 2)]),
    ([.initial, .old], [C(), C(oldValue: 1)]),
    ([.initial, .old, .new], [C(newValue: 1), C(oldValue: 1, newValue: 2)]),
    ([.prior], [C(isPrior: true), C()]),
    ([.prior, .new], [C(isPrior: true), C(newValue: 2)]),
    ([.prior, .old], [C(oldValue: 1, isPrior: true), C(oldValue: 1)]),
    ([.prior, .old, .new], [C(oldValue: 1, isPrior: true), C(oldValue: 1, newValue: 2)]),
    ([.prior, .initial], [C(), C(isPrior: true), C()]),
    ([.prior, .initial, .new], [C(newValue: 1), C(isPrior: true), C(newValue: 2)]),
    ([.prior, .initial, .old], [C(), C(oldValue: 1, isPrior: true), C(oldValue: 1)]),
    (
      [.prior, .initial, .old, .new],
      [C(newValue: 1), C(oldValue: 1, isPrior: true), C(oldValue: 1, newValue: 2)]
    ),
  ]

  @Test func allSixteenOptionCombinationsDeliverWhatKVODelivers() {
    #expect(Set(Self.table.map(\.0.rawValue)) == Set(0..<16))
    for (options, expected) in Self.table {
      let box = Observed(1)
      let seen = Recorder<C>()
      let valueDuringCallback = Recorder<Int>()
      box.observe(options: options) { change in
        seen.append(change)
        valueDuringCallback.append(box.value)
      }
      box.value = 2
      #expect(seen.values == expected, "options \(options.rawValue)")
      // The initial callback sees 1, a prior callback still sees 1, the post callback sees 2.
      let expectedValues = expected.enumerated().map { index, change in
        index == expected.count - 1 ? 2 : 1
      }
      #expect(valueDuringCallback.values == expectedValues, "options \(options.rawValue)")
    }
  }

  @Test func writingAnEqualValueNotifiesByDefault() {
    let box = Observed(5)
    let seen = Recorder<C>()
    box.observe(options: [.old, .new]) { seen.append($0) }
    box.value = 5
    #expect(seen.values == [C(oldValue: 5, newValue: 5)])
  }

  @Test func skipsEqualValuesOptInReportsNothingForAnEqualWrite() {
    let box = Observed(5, skipsEqualValues: true)
    let seen = Recorder<C>()
    box.observe(options: [.old, .new, .prior]) { seen.append($0) }
    box.value = 5
    box.modify { $0 += 0 }
    #expect(seen.values.isEmpty)
    box.value = 6
    #expect(seen.values == [C(oldValue: 5, isPrior: true), C(oldValue: 5, newValue: 6)])
  }

  @Test func propertyWrapperSkipsEqualValuesWhenAsked() {
    final class Cursor: @unchecked Sendable {
      @Observed(skipsEqualValues: true) var line = 1
    }
    let cursor = Cursor()
    let count = Counter()
    cursor.$line.observe { _ in count.increment() }
    cursor.line = 1
    cursor.line = 2
    #expect(count.value == 1)
  }

  @Test func modifyIsOneChange() {
    let box = Observed(1)
    let seen = Recorder<C>()
    box.observe(options: [.old, .new, .prior]) { seen.append($0) }
    let result = box.modify { value -> String in
      value += 1
      value *= 10
      return "done"
    }
    #expect(result == "done")
    #expect(seen.values == [C(oldValue: 1, isPrior: true), C(oldValue: 1, newValue: 20)])
  }

  @Test func modifyThatThrowsWritesNothing() {
    struct Failure: Error {}
    let box = Observed(1)
    let count = Counter()
    box.observe { _ in count.increment() }
    #expect(throws: Failure.self) {
      try box.modify { value in
        value = 99
        throw Failure()
      }
    }
    #expect(box.value == 1)
    #expect(count.value == 0)
  }

  @Test func propertyWrapperProjectsTheBox() {
    let player = Player()
    let seen = Recorder<C>()
    player.$score.observe(options: [.old, .new]) { seen.append($0) }
    player.score += 10
    player.$score.modify { $0 *= 2 }
    #expect(seen.values == [C(oldValue: 0, newValue: 10), C(oldValue: 10, newValue: 20)])
    #expect(player.score == 20)
  }

  @Test func concurrentWritersAreSerialisedAndSeenInWriteOrder() async {
    let box = Observed(0)
    let seen = Recorder<C>()
    box.observe(options: [.old, .new]) { seen.append($0) }
    let writers = 4
    let writes = 2_000
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<writers {
        group.addTask {
          for _ in 0..<writes { box.modify { $0 += 1 } }
        }
      }
    }
    let changes = seen.values
    #expect(box.value == writers * writes)
    #expect(changes.count == writers * writes)
    // In write order: every change starts where the previous one ended.
    #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
    #expect(changes.allSatisfy { $0.oldValue! + 1 == $0.newValue! })
  }

  @Test func queuedPriorAndPostOfOneWriteAreNeverInterleavedWithAnother() async {
    let box = Observed(0)
    let queue = DispatchQueue(label: "observer")
    let seen = Recorder<C>()
    let writers = 4
    let writes = 500
    let done = Expectation(count: 2 * writers * writes)
    box.observe(options: [.prior, .old, .new], on: .queue(queue)) { change in
      seen.append(change)
      done.fulfill()
    }
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for index in 0..<writes { box.value = writer * 10_000 + index }
        }
      }
    }
    #expect(await done.wait(timeout: .seconds(10)))
    let changes = seen.values
    var previousNew = 0
    for pair in stride(from: 0, to: changes.count - 1, by: 2) {
      let prior = changes[pair]
      let post = changes[pair + 1]
      #expect(prior.isPrior && !post.isPrior)
      #expect(prior.oldValue == post.oldValue)
      #expect(post.oldValue == previousNew)
      previousNew = post.newValue ?? -1
    }
  }

  @Test func handlerMayWriteObserveAndCancelWithoutDeadlock() {
    let box = Observed(0)
    let seen = Recorder<Int>()
    let clamp = box.observe { change in
      // A recursive write is delivered depth-first.
      if change.newValue! > 10 { box.value = 10 }
    }
    box.observe { change in seen.append(change.newValue!) }
    box.value = 50
    #expect(box.value == 10)
    #expect(seen.values == [10, 50])
    clamp.cancel()
    let inner = Recorder<Subscription>()
    inner.append(box.observe { _ in inner.values.first?.cancel() })
    box.value = 1
    #expect(inner.values.first?.isCancelled == true)
  }

  @Test func handlerAddedDuringAWriteIsNotCalledByThatWrite() {
    let box = Observed(0)
    let late = Counter()
    let added = Counter()
    box.observe { _ in
      if added.value == 0 {
        added.increment()
        box.observe { _ in late.increment() }
      }
    }
    box.value = 1
    #expect(late.value == 0)
    box.value = 2
    #expect(late.value == 1)
  }

  @Test func cancelStopsDeliveryAndReleasesCaptures() {
    let box = Observed(0)
    let count = Counter()
    weak var weakCapture: Tracked?
    let subscription: Subscription
    do {
      let captured = Tracked()
      weakCapture = captured
      subscription = box.observe { _ in
        count.increment()
        _ = captured
      }
    }
    box.value = 1
    subscription.cancel()
    box.value = 2
    #expect(count.value == 1)
    #expect(weakCapture == nil)
    #expect(subscription.isCancelled)
    #expect(box.observerCount == 0)
  }

  @Test func cancelledQueuedDeliveryNeverStarts() async {
    let box = Observed(0)
    let queue = DispatchQueue(label: "held")
    let count = Counter()
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }
    let subscription = box.observe(on: .queue(queue)) { _ in count.increment() }
    box.value = 1
    subscription.cancel()
    gate.signal()
    let drained = Expectation()
    queue.async { drained.fulfill() }
    #expect(await drained.wait(timeout: .seconds(5)))
    #expect(count.value == 0)
  }

  @Test func initialIsEnqueuedBeforeLaterWrites() async {
    let box = Observed(1)
    let queue = DispatchQueue(label: "initial")
    let seen = Recorder<C>()
    let done = Expectation(count: 2)
    box.observe(options: [.initial, .new], on: .queue(queue)) { change in
      seen.append(change)
      done.fulfill()
    }
    box.value = 2
    #expect(await done.wait(timeout: .seconds(5)))
    #expect(seen.values == [C(newValue: 1), C(newValue: 2)])
  }

  @Test func ownerBoundHandlerEndsWhenOwnerIsDeallocated() {
    let box = Observed(0)
    let seen = Recorder<String>()
    var owner: Tracked? = Tracked("label")
    let subscription = box.observe(owner: owner!) { owner, change in
      seen.append("\(owner.name) \(change.newValue!)")
    }
    box.value = 1
    owner = nil
    box.value = 2
    #expect(seen.values == ["label 1"])
    #expect(subscription.isCancelled)
    #expect(box.observerCount == 0)
  }

  @Test func deallocatingTheBoxEndsEveryObserverAndReleasesCaptures() {
    weak var weakBox: Observed<Int>?
    weak var weakCapture: Tracked?
    var subscription: Subscription?
    do {
      let box = Observed(0)
      weakBox = box
      let captured = Tracked()
      weakCapture = captured
      subscription = box.observe { _ in _ = captured }
    }
    #expect(weakBox == nil)
    #expect(weakCapture == nil)
    #expect(subscription?.isCancelled == true)
  }

  @Test func changesSequenceYieldsInOrderAndFinishesWithTheBox() async {
    var box: Observed<Int>? = Observed(0)
    let stream = box!.changes(options: [.initial, .new])
    box!.value = 1
    box!.value = 2
    box = nil
    var values: [Int] = []
    for await change in stream { values.append(change.newValue!) }
    #expect(values == [0, 1, 2])
  }

  @Test func stressWritesObservesAndCancelsFromManyThreads() async {
    let box = Observed(0)
    let queue = DispatchQueue(label: "stress")
    let total = ThreadSafeCounter()
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<4 {
        group.addTask {
          for index in 0..<300 {
            if worker % 2 == 0 {
              box.modify { $0 += 1 }
            } else {
              let delivery: Delivery = index % 2 == 0 ? .immediate : .queue(queue)
              let subscription = box.observe(options: [.prior, .old, .new], on: delivery) { _ in
                total.increment()
              }
              _ = box.value
              subscription.cancel()
            }
          }
        }
      }
    }
    #expect(box.value == 600)
    #expect(box.observerCount == 0)
  }

  /// An owner whose deinit cancels its own token: neither the sweep of dead owners on
  /// registration nor `isCancelled` may release an owner's last reference under the box's lock
  /// (the deinit's cancel takes the same lock).
  @Test func anOwnerWhoseDeinitCancelsItsTokenNeverDeadlocksTheSweep() async {
    let box = Observed(0)
    let didFinish = await ownersDieWhileTheSourceSweeps(rounds: stressRounds(50_000)) { owner in
      box.observe(owner: owner) { _, _ in }
    } churn: {
      let token = box.observe { _ in }
      _ = token.isCancelled
      token.cancel()
    }
    #expect(didFinish)
    if didFinish { #expect(box.observerCount == 0) }  // after a deadlock, this would hang too
  }
}
