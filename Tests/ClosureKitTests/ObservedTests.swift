import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

@testable import ClosureKit

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
    #expect(
      await onOwnThreads(0..<writers) { _ in
        for _ in 0..<writes { box.modify { $0 += 1 } }
      })
    let changes = seen.values
    #expect(box.value == writers * writes)
    // One change per write, or fewer: writes queued behind another thread's delivery are delivered
    // together, as one change to the box's latest state.
    #expect(changes.count <= writers * writes)
    // In write order: every change starts where the previous one ended, the last at the end.
    #expect(changes.first?.oldValue == 0)
    #expect(changes.last?.newValue == writers * writes)
    #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
    #expect(changes.allSatisfy { $0.oldValue! < $0.newValue! })
  }

  @Test func queuedPriorAndPostOfOneWriteAreNeverInterleavedWithAnother() async {
    let box = Observed(0)
    let queue = DispatchQueue(label: "observer")
    let seen = Recorder<C>()
    let writers = 4
    let writes = 500
    box.observe(options: [.prior, .old, .new], on: .queue(queue)) { change in
      seen.append(change)
    }
    #expect(
      await onOwnThreads(0..<writers) { writer in
        for index in 0..<writes { box.value = writer * 10_000 + index }
      })
    // Every writer has returned, so every change has been enqueued (the delivering thread returns
    // after the changes queued for it).
    await drain(queue)
    let changes = seen.values
    #expect(changes.count % 2 == 0 && changes.count <= 2 * writers * writes)
    #expect(changes.last?.newValue == box.value)
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
    let inner = Recorder<HandlerSubscription>()
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
    let witness = CaptureWitness()
    let subscription = box.observe(witness.capturing { _ in count.increment() })
    box.value = 1
    subscription.cancel()
    box.value = 2
    #expect(count.value == 1)
    #expect(witness.isReleased)
    #expect(subscription.isCancelled)
    #expect(box.observerCount == 0)
  }

  @Test func cancelledQueuedDeliveryNeverStarts() async {
    let box = Observed(0)
    let queue = DispatchQueue(label: "held")
    let count = Counter()
    queue.suspend()  // holds the queue without blocking a thread
    let subscription = box.observe(on: .queue(queue)) { _ in count.increment() }
    box.value = 1
    subscription.cancel()
    queue.resume()
    #expect(await drained(queue))
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
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(seen.values == [C(newValue: 1), C(newValue: 2)])
  }

  @Test func ownerBoundHandlerEndsWhenOwnerIsDeallocated() {
    let box = Observed(0)
    let seen = Recorder<String>()
    var owner: Tracked? = Tracked("label")
    let subscription = box.observing().addHandler(owner: owner!) { owner, change in
      seen.append("\(owner.name) \(change.newValue!)")
    }
    box.value = 1
    owner = nil
    box.value = 2
    #expect(seen.values == ["label 1"])
    #expect(subscription.isCancelled)
    #expect(box.observerCount == 0)
  }

  /// The lifetime rule: a handler whose owner died is released no later than the next
  /// registration, an owner-bound one included (a registration skips the sweep only when the one
  /// owner-bound observer is the one it adds, whose owner its caller holds).
  @Test(arguments: [false, true])
  func aHandlerWhoseOwnerDiedIsReleasedByTheNextRegistration(nextIsOwnerBound: Bool) {
    let box = Observed(0)
    let witness = CaptureWitness()
    var owner: Tracked? = Tracked("owner")
    box.observing().addHandler(owner: owner!, witness.capturing { _, _ in })
    owner = nil
    #expect(!witness.isReleased)
    let next = Tracked("next owner")
    let token = nextIsOwnerBound ? box.observing().addHandler(owner: next) { _, _ in } : box.observe { _ in }
    #expect(witness.isReleased)
    #expect(box.observerCount == 1)
    token.cancel()
  }

  /// A kept token does not keep the handler's captures after `cancel()`, and reports the end: the
  /// token is the observer, and the handler lives in the box's registry only.
  @Test func aKeptTokenHoldsNoCapturesAfterCancelAndReportsItsEnd() {
    let box = Observed(0)
    weak var weakCaptured: Tracked?
    var tokens: [HandlerSubscription] = []
    do {
      let captured = Tracked()
      weakCaptured = captured
      tokens.append(box.observe(options: [.initial, .new]) { _ in _ = captured })
      tokens.append(box.observing().addHandler(owner: Tracked("kept owner")) { _, _ in _ = captured })
    }
    #expect(tokens[1].isCancelled)  // its owner was a temporary
    #expect(!tokens[0].isCancelled)
    tokens[0].cancel()
    box.value = 1  // finds the second observer's owner gone, and removes it
    #expect(tokens[0].isCancelled)
    #expect(tokens[1].isCancelled)
    #expect(weakCaptured == nil)
    #expect(box.observerCount == 0)
  }

  @Test func deallocatingTheBoxEndsEveryObserverAndReleasesCaptures() {
    weak var weakBox: Observed<Int>?
    let witness = CaptureWitness()
    var subscription: HandlerSubscription?
    do {
      let box = Observed(0)
      weakBox = box
      subscription = box.observe(witness.capturing { _ in })
    }
    #expect(weakBox == nil)
    #expect(witness.isReleased)
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
    let total = Counter()
    #expect(
      await onOwnThreads(0..<4) { worker in
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
      })
    #expect(box.value == 600)
    #expect(box.observerCount == 0)
  }

  /// An owner whose deinit cancels its own token: neither the sweep of dead owners on
  /// registration nor `isCancelled` may release an owner's last reference under the box's lock
  /// (the deinit's cancel takes the same lock).
  @Test(.heavy) func anOwnerWhoseDeinitCancelsItsTokenNeverDeadlocksTheSweep() async {
    let box = Observed(0)
    let didFinish = await ownersDieWhileTheSourceSweeps(rounds: stressRounds(50_000)) { owner in
      box.observing().addHandler(owner: owner) { _, _ in }
    } churn: {
      let token = box.observe { _ in }
      _ = token.isCancelled
      token.cancel()
    }
    #expect(didFinish)
    if didFinish { #expect(box.observerCount == 0) }  // after a deadlock, this would hang too
  }
}

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes under contention: a writer that finds another thread delivering hands its change over.
extension ObservedTests {
  /// Celsius and Fahrenheit bound both ways (multiples of 5 °C convert exactly), written from two
  /// threads at once. With a gate held across delivery, each thread held one box's gate and waited
  /// for the other's: a permanent deadlock.
  @Test func twoWayBindingWrittenFromTwoThreadsAtOnceNeverDeadlocks() async {
    let celsius = Observed(0, skipsEqualValues: true)
    let fahrenheit = Observed(32, skipsEqualValues: true)
    // Each handler captures the other box: cancelled at the end, so the boxes are freed (ASan's
    // leak check).
    let toFahrenheit = celsius.observe { _ in fahrenheit.value = celsius.value * 9 / 5 + 32 }
    let toCelsius = fahrenheit.observe { _ in celsius.value = (fahrenheit.value - 32) * 5 / 9 }
    defer {
      toFahrenheit.cancel()
      toCelsius.cancel()
    }
    let rounds = stressRounds(20_000)
    let done = Expectation(count: 2)
    let progress = StressProgress()
    pthread_detach(
      startThread {
        for index in 0..<rounds {
          celsius.value = index % 100 * 5
          progress.advance()
        }
        done.fulfill()
      }
    )
    pthread_detach(
      startThread {
        for index in 0..<rounds {
          fahrenheit.value = index % 100 * 9 + 32
          progress.advance()
        }
        done.fulfill()
      }
    )
    // A deadlock stops every write; a loaded machine only slows them.
    let finished = await waitWhileProgressing(done, progress)
    #expect(finished)
    // Each writer returned after delivering what it had to: the binding has settled.
    if finished { #expect(fahrenheit.value == celsius.value * 9 / 5 + 32) }
  }

  /// Plain writes from four threads, with prior callbacks: each observer sees them in write order
  /// (every change starts where the one before ended, the last ends at the box's value), each
  /// writer's values in its own order, and a prior callback is always followed by the post callback
  /// of the same change. Writes queued behind another thread's delivery are delivered together, as
  /// one change to the latest value, so there may be fewer changes than writes.
  @Test func contendedWritesAreDeliveredInWriteOrderWithPriorAndPostAdjacent() async {
    let box = Observed(0)
    let seen = Recorder<C>()
    box.observe(options: [.prior, .old, .new]) { seen.append($0) }
    let writers = 4
    let writes = stressRounds(5_000)
    #expect(
      await onOwnThreads(1...writers) { writer in
        for index in 1...writes { box.value = writer * 1_000_000 + index }
      })
    let changes = seen.values
    #expect(changes.count % 2 == 0 && changes.count <= 2 * writers * writes)
    let priors = stride(from: 0, to: changes.count, by: 2).map { changes[$0] }
    let posts = stride(from: 1, to: changes.count, by: 2).map { changes[$0] }
    #expect(priors.allSatisfy(\.isPrior) && posts.allSatisfy { !$0.isPrior })
    #expect(zip(priors, posts).allSatisfy { $0.oldValue == $1.oldValue })
    #expect(posts.first?.oldValue == 0)
    #expect(zip(posts, posts.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
    #expect(posts.last?.newValue == box.value)
    for writer in 1...writers {
      let mine = posts.compactMap(\.newValue).filter { $0 / 1_000_000 == writer }.map { $0 % 1_000_000 }
      #expect(zip(mine, mine.dropFirst()).allSatisfy { $0 < $1 }, "writer \(writer)")
    }
  }

  /// A write made while another thread runs a handler of the same box returns at once, with the
  /// value stored; the delivering thread delivers it after the change it is delivering. Two such
  /// writes are delivered as one change, to the latest value.
  @Test func aWriterNeverWaitsForAnotherThreadsHandlersAndItsChangeIsDeliveredByThatThread() async {
    let box = Observed(0)
    let handlerStarted = Expectation()
    // Waited for by the handler, on the writer's thread: a thread of the test's own, never one of
    // the cooperative pool.
    let release = DispatchSemaphore(value: 0)
    let seen = Recorder<C>()
    let threads = Recorder<Bool>()
    let delivered = Expectation(count: 2)
    let firstThread = Slot<Int>()
    box.observe(options: [.old, .new]) { change in
      if change.newValue == 1 {
        firstThread.value = currentThreadID
        handlerStarted.fulfill()
        _ = release.wait(timeout: .now() + handlerHold)
      }
      threads.append(firstThread.value == currentThreadID)
      seen.append(change)
      delivered.fulfill()
    }
    onOwnThread { box.value = 1 }
    #expect(await handlerStarted.wait(timeout: crossThreadDeadline))
    box.value = 2  // returns although the handler of the first write is still running
    #expect(box.value == 2)
    box.modify { $0 += 10 }  // so does `modify`
    #expect(box.value == 12)
    #expect(seen.values.isEmpty)
    release.signal()
    #expect(await delivered.wait(timeout: crossThreadDeadline))
    #expect(seen.values == [C(oldValue: 0, newValue: 1), C(oldValue: 1, newValue: 12)])
    #expect(threads.values == [true, true])
  }

  /// A handler's write on the delivering thread is delivered depth-first when nothing is queued
  /// (``handlerMayWriteObserveAndCancelWithoutDeadlock``); when another thread's change is queued,
  /// it goes behind that change, so every observer still sees the writes in write order (the two
  /// queued writes as one change, to the latest value).
  @Test func aHandlersWriteGoesBehindAChangeQueuedByAnotherThread() async {
    let box = Observed(0)
    let handlerStarted = Expectation()
    // Waited for on the writer's thread, a thread of the test's own.
    let otherWrote = DispatchSemaphore(value: 0)
    let seen = Recorder<C>()
    let firstWriteReturned = Expectation()
    // The handler captures its own box: cancelled at the end, so the box is freed (ASan's leak check).
    let writer = box.observe(options: [.old, .new]) { change in
      guard change.newValue == 1 else { return }
      handlerStarted.fulfill()
      _ = otherWrote.wait(timeout: .now() + handlerHold)
      box.value = 3  // queued behind the other thread's 2
    }
    defer { writer.cancel() }
    box.observe(options: [.old, .new]) { seen.append($0) }
    onOwnThread {
      box.value = 1
      firstWriteReturned.fulfill()
    }
    #expect(await handlerStarted.wait(timeout: crossThreadDeadline))
    box.value = 2
    otherWrote.signal()
    #expect(await firstWriteReturned.wait(timeout: crossThreadDeadline))
    // The delivering thread delivered everything before its own write returned.
    #expect(seen.values == [C(oldValue: 0, newValue: 1), C(oldValue: 1, newValue: 3)])
    #expect(box.value == 3)
  }

  /// Registering with `.initial` while another thread delivers: the initial callback is queued in
  /// write order, so it comes after the changes written before and before the ones written after.
  @Test func anInitialCallbackUnderContentionIsDeliveredInWriteOrderByTheDeliveringThread() async {
    let box = Observed(0)
    let handlerStarted = Expectation()
    // Waited for on the writer's thread, a thread of the test's own.
    let release = DispatchSemaphore(value: 0)
    box.observe { change in
      guard change.newValue == 1 else { return }
      handlerStarted.fulfill()
      _ = release.wait(timeout: .now() + handlerHold)
    }
    let firstWriteReturned = Expectation()
    onOwnThread {
      box.value = 1
      firstWriteReturned.fulfill()
    }
    #expect(await handlerStarted.wait(timeout: crossThreadDeadline))
    let seen = Recorder<C>()
    box.observe(options: [.initial, .new]) { seen.append($0) }
    #expect(seen.values.isEmpty)  // queued for the delivering thread
    box.value = 2
    release.signal()
    #expect(await firstWriteReturned.wait(timeout: crossThreadDeadline))
    #expect(seen.values == [C(newValue: 1), C(newValue: 2)])
  }

  /// A handler cancelled by another handler during a write: the delivering thread reads the
  /// observer list without retaining it, so the list is replaced by a copy and the old one released
  /// when that thread leaves; the cancelled handler's captures are released by the time the write
  /// returns.
  @Test func aHandlerCancelledDuringAWriteIsReleasedWhenTheWriteReturns() {
    let box = Observed(0)
    let witness = CaptureWitness()
    let victim = Slot<HandlerSubscription>()
    box.observe { _ in victim.value?.cancel() }
    victim.value = box.observe(witness.capturing { _ in })
    #expect(!witness.isReleased)
    box.value = 1
    #expect(witness.isReleased)
    #expect(box.observerCount == 1)
  }

  /// Registration and cancellation change the observer list in place, except while a write is
  /// being delivered from it (the delivering thread reads it without a retain): then the list is
  /// replaced by a copy and the old one kept until the write returns. A handler that registers
  /// enough observers to make the array grow, and cancels one not reached yet, leaves the running
  /// write intact.
  @Test func observersAddedAndCancelledInBulkByAHandlerLeaveTheRunningWriteIntact() {
    let box = Observed(0)
    let first = Counter()
    let victimCalls = Counter()
    let lastCalls = Counter()
    let addedCalls = Counter()
    let victim = Slot<HandlerSubscription>()
    let addedTokens = Slot<[HandlerSubscription]>()
    // The handler captures its own box: cancelled at the end, so the box is freed (ASan's leak check).
    let adder = box.observe { _ in
      first.increment()
      guard first.value == 1 else { return }
      addedTokens.value = (0..<200).map { _ in box.observe { _ in addedCalls.increment() } }
      victim.value?.cancel()
    }
    defer { adder.cancel() }
    victim.value = box.observe { _ in victimCalls.increment() }
    box.observe { _ in lastCalls.increment() }
    box.value = 1
    #expect(first.value == 1)
    #expect(victimCalls.value == 0)
    #expect(lastCalls.value == 1)
    #expect(addedCalls.value == 0)
    #expect(box.observerCount == 202)
    box.value = 2
    #expect(lastCalls.value == 2)
    #expect(addedCalls.value == 200)
    for token in (addedTokens.value ?? []).prefix(100) { token.cancel() }
    box.value = 3
    #expect(addedCalls.value == 300)
    #expect(box.observerCount == 102)
  }

  /// The mechanism behind the test above, checked directly: a write delivers to the snapshot of
  /// the registry it took under the lock, so observers added by a handler during the write wait
  /// for the next one, and an observer cancelled during it is skipped (its node has ended); the
  /// box's state keeps its invariants through it all.
  @Test func aWriteDeliversToTheObserversRegisteredBeforeItAndSkipsThoseCancelledMeanwhile() {
    let box = Observed(0)
    let calls = Recorder<String>()
    let later = Slot<HandlerSubscription>()
    let added = Slot<[HandlerSubscription]>()
    let adder = box.observe { change in
      calls.append("adder \(change.newValue!)")
      guard change.newValue == 1 else { return }
      later.value?.cancel()
      added.value = [
        box.observe { calls.append("added \($0.newValue!)") },
        box.observe { calls.append("added \($0.newValue!)") },
      ]
      #expect(box.storage.verifyObservedInvariants())
    }
    defer { adder.cancel() }
    later.value = box.observe { calls.append("cancelled \($0.newValue!)") }
    box.value = 1
    #expect(calls.values == ["adder 1"])
    box.value = 2
    #expect(calls.values == ["adder 1", "adder 2", "added 2", "added 2"])
    #expect(box.observerCount == 3)
    #expect(box.storage.verifyObservedInvariants())
    for token in added.value ?? [] { token.cancel() }
  }

  /// Drops, from two threads at once, a token and what ends its observer (the box, the owner, or a
  /// cancel through another reference): the token is the observer, which the registry and the
  /// token's holder each keep by a reference of their own, so neither side uses it after it is
  /// freed (run under AddressSanitizer and ThreadSanitizer in CI) and every capture is released.
  @Test(.serialized, arguments: ["box", "owner", "bag"])
  func aTokenDroppedWhileItsObserverEndsOnAnotherThreadIsNeverUsedAfterItIsFreed(ending: String) async {
    // The rounds run on a thread of their own, not on one of the few cooperative threads that the
    // other tests' tasks need (each round starts and joins two threads).
    let done = Expectation()
    let releasedEveryCapture = Locked(false)
    pthread_detach(
      startThread {
        releasedEveryCapture.withLock { $0 = Self.dropTokensWhileObserversEnd(ending: ending) }
        done.fulfill()
      }
    )
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(releasedEveryCapture.withLock { $0 })
  }

  /// The rounds of the test above; `true` if every round released the handler's captures.
  static func dropTokensWhileObserversEnd(ending: String) -> Bool {
    final class Holder: @unchecked Sendable {
      // @unchecked Sendable: each property is written by one thread, between the barrier and the
      // join, and read by the test after the join.
      var box: Observed<Int>?
      var token: HandlerSubscription?
      var owner: Tracked?
      var bag: SubscriptionBag?
    }
    var released = 0
    // Each round starts two threads. A few dozen rounds, one argument at a time: 500 rounds of the
    // three arguments at once (3,000 threads, spinning at the barrier) starved the network tests
    // running beside them past their 30-second deadlines on 2 cores.
    let rounds = isUnderThreadSanitizer || isUnderAddressSanitizer ? 20 : 60
    for _ in 0..<rounds {
      let holder = Holder()
      weak var weakCapture: Tracked?
      do {
        let box = Observed(0)
        let captured = Tracked()
        weakCapture = captured
        let owner = Tracked()
        let token =
          ending == "owner"
          ? box.observing().addHandler(owner: owner) { _, _ in _ = captured }
          : box.observe { _ in _ = captured }
        let bag = SubscriptionBag()
        if ending == "bag" { bag.insert(token) }
        (holder.box, holder.token, holder.owner, holder.bag) = (box, token, owner, bag)
      }
      let arrived = Atomic(0)
      let dropToken = startThread {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < 2 { sched_yield() }
        holder.token = nil
      }
      let endObserver = startThread {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < 2 { sched_yield() }
        switch ending {
        case "box": holder.box = nil
        case "owner":
          holder.owner = nil
          holder.box?.value = 1  // ends the orphan
        default: holder.bag = nil
        }
      }
      pthread_join(dropToken, nil)
      pthread_join(endObserver, nil)
      if ending != "box" { holder.box = nil }
      if weakCapture == nil { released += 1 }
    }
    return released == rounds
  }
}
