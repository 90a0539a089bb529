import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Observation
import Testing

@testable import ClosureKit

/// A thread-safe observable model whose next write can be held between its willSet and its store,
/// as a writer preempted inside the setter is.
final class HeldCounter: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let storage = Locked(0)
  private let hold = Locked<HeldWrite?>(nil)

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return storage.withLock { $0 }
    }
    set {
      let held = hold.withLock { $0.take() }
      let start = ContinuousClock.now
      registrar.willSet(self, keyPath: \.value)
      held?.waitForRelease()
      storage.withLock { $0 = newValue }
      held?.storedAfter.value = ContinuousClock.now - start
      registrar.didSet(self, keyPath: \.value)
    }
  }

  /// Makes the next write wait, after its willSet, until the returned hold is released.
  func holdNextWrite() -> HeldWrite {
    let held = HeldWrite()
    hold.withLock { $0 = held }
    return held
  }
}

/// One held write of a ``HeldCounter``.
final class HeldWrite: Sendable {
  /// Fulfilled when the write has made its willSet and waits.
  let reached = Expectation()
  /// How long after the start of its willSet the write stored its value.
  let storedAfter = Slot<Duration>()
  private let gate = DispatchSemaphore(value: 0)

  /// Lets the write store its value.
  func release() { gate.signal() }

  func waitForRelease() {
    reached.fulfill()
    _ = gate.wait(timeout: .now() + handlerHold)
  }
}

/// A main-actor model with a thread-safe model along its chain, written off the main actor.
@MainActor @Observable final class HeldScreen {
  let held = HeldCounter()
}

/// Delays run by hand, in virtual milliseconds from 0: an observation's `runAfter` for a test.
final class VirtualDelays: Sendable {
  private struct Job {
    let due: Int
    let job: @Sendable () -> Void
  }

  private let state = Locked<(now: Int, jobs: [Job])>((0, []))

  var runAfter: RunAfter {
    { [self] _, delay, job in
      let milliseconds =
        switch delay {
        case .seconds(let value): value * 1_000
        case .milliseconds(let value): value
        case .microseconds(let value): value / 1_000
        case .nanoseconds(let value): value / 1_000_000
        default: Int.max / 2
        }
      state.withLock { $0.jobs.append(Job(due: $0.now + milliseconds, job: job)) }
    }
  }

  /// When the earliest job is due, if any is scheduled.
  var nextDue: Int? { state.withLock { $0.jobs.map(\.due).min() } }

  /// Advances to the earliest job and runs it on this thread; returns when it was due.
  @discardableResult
  func runNext() -> Int? {
    let next = state.withLock { state -> Job? in
      guard let index = state.jobs.indices.min(by: { state.jobs[$0].due < state.jobs[$1].due }) else { return nil }
      let job = state.jobs.remove(at: index)
      state.now = job.due
      return job
    }
    next?.job()
    return next?.due
  }
}

@Suite struct ObservableLateStoreTests {
  typealias C = Change<Int>

  /// The bound that Observation.md states: a store landing within 4 s of its willSet is delivered.
  static let bound: Duration = .seconds(4)

  /// Before the re-checks, the hop re-read 0 while the writer was held, the late store of 9 fired
  /// nothing, and the observer kept 0 for good.
  @Test(arguments: ["immediate", "queue"])
  func aStoreThatLandsAfterTheHopReReadIsDelivered(delivery kind: String) async {
    let model = HeldCounter()
    let delivery: Delivery = kind == "queue" ? .queue(DispatchQueue(label: "observer")) : .immediate
    let seen = Recorder<C>()
    let hopReRead = Expectation()
    let sawNine = Expectation()
    let subscription = model.observe(\.value, options: [.old, .new], on: delivery) { change in
      seen.append(change)
      if change.newValue == 9 { sawNine.fulfill() } else { hopReRead.fulfill() }
    }
    let held = model.holdNextWrite()
    let stored = Expectation()
    onOwnThread {
      model.value = 9
      stored.fulfill()
    }
    #expect(await held.reached.wait(timeout: crossThreadDeadline))
    #expect(await hopReRead.wait(timeout: crossThreadDeadline))  // the store has not landed: it read 0
    held.release()
    let delivered = await sawNine.wait(timeout: crossThreadDeadline)
    #expect(await stored.wait(timeout: crossThreadDeadline))
    if let storedAfter = held.storedAfter.value, storedAfter < Self.bound {
      #expect(delivered)
      #expect(seen.values == [C(oldValue: 0, newValue: 0), C(oldValue: 0, newValue: 9)])
    }
    #expect(model.value == 9)
    subscription.cancel()
  }

  /// The same for a main-actor model, whose hop and re-checks run on the main actor.
  @MainActor @Test func aStoreOffTheMainActorThatLandsAfterTheHopReReadIsDelivered() async {
    let screen = HeldScreen()
    let seen = Recorder<C>()
    let hopReRead = Expectation()
    let sawNine = Expectation()
    let subscription = screen.observe(\.held.value, options: [.prior, .old, .new]) { change in
      #expect(MainQueueCheck.isOnMainQueue)
      seen.append(change)
      if change.newValue == 9 { sawNine.fulfill() } else if !change.isPrior { hopReRead.fulfill() }
    }
    let model = screen.held
    let held = model.holdNextWrite()
    let stored = Expectation()
    onOwnThread {
      model.value = 9
      stored.fulfill()
    }
    #expect(await held.reached.wait(timeout: crossThreadDeadline))
    #expect(await hopReRead.wait(timeout: crossThreadDeadline))
    held.release()
    let delivered = await sawNine.wait(timeout: crossThreadDeadline)
    #expect(await stored.wait(timeout: crossThreadDeadline))
    if let storedAfter = held.storedAfter.value, storedAfter < Self.bound {
      #expect(delivered)
      #expect(
        seen.values == [C(oldValue: 0, isPrior: true), C(oldValue: 0, newValue: 0), C(oldValue: 0, newValue: 9)]
      )
    }
    subscription.cancel()
  }

  /// The bound, in virtual time (the observation's delays are run by the test): a store landing 4 s
  /// after its willSet is delivered by the last re-check, and the re-checks then stop.
  @Test func aStoreLandingWithinFourSecondsOfItsWillSetIsDeliveredAndTheReChecksThenStop() async {
    let model = HeldCounter()
    let delays = VirtualDelays()
    let seen = Recorder<C>()
    let tracker = ObservableTracker(
      root: model, keyPath: \HeldCounter.value, options: [.old, .new], delivery: .immediate, owner: nil,
      handler: { seen.append($0) }, runAfter: delays.runAfter
    )
    let subscription = tracker.start()
    let held = model.holdNextWrite()
    let stored = Expectation()
    onOwnThread {
      model.value = 9
      stored.fulfill()
    }
    #expect(await held.reached.wait(timeout: crossThreadDeadline))
    // The willSet is at 0 ms; the hop is due after its grace period and re-reads 0.
    #expect(delays.runNext() == 1)
    #expect(seen.values == [C(oldValue: 0, newValue: 0)])
    // The re-checks due before 4 s still read 0.
    var checks = 0
    while let due = delays.nextDue, due < 4_000 {
      delays.runNext()
      checks += 1
    }
    #expect(seen.values == [C(oldValue: 0, newValue: 0)])
    // The store lands 4 s after its willSet; the next re-check delivers it.
    held.release()
    #expect(await stored.wait(timeout: crossThreadDeadline))
    #expect((delays.runNext() ?? 0) >= 4_000)
    checks += 1
    #expect(seen.values == [C(oldValue: 0, newValue: 0), C(oldValue: 0, newValue: 9)])
    while checks < 100, delays.runNext() != nil { checks += 1 }
    #expect(checks == ObservationRechecks.count)
    #expect(seen.values.count == 2)
    subscription.cancel()
  }
}
