import ClosureKitTestSupport
import Synchronization
import Testing

@testable import ClosureKit

/// Several threads cancelling the same thing at once, by token, bag or group (DESIGN.md, threading:
/// every cancel that returns, on any thread, means no delivery starts and the captures are
/// released unless a send is running). Each round starts its cancellers together; after its own
/// cancel returns, each sends, so that a handler still live would run, and checks the captures.
@Suite struct CancelRaceTests {
  /// Two threads each call `cancelAll()` on one bag; the captures' deinit calls it again (and
  /// cancels its own token) on the cancelling thread, which must not wait for itself.
  @Test func everyCancelAllThatReturnsHasEndedTheBagsHandlers() async {
    let violations = await race(rounds: stressRounds(3_000)) { round in
      let bag = SubscriptionBag()
      for _ in 0..<32 {
        let token = round.event.addHandler(round.witnesses.capturing(Reentrant(bag: bag)) { round.handlerRan() })
        token.store(in: bag)
      }
      return { bag.cancelAll() }
    }
    #expect(violations == 0)
  }

  /// Two threads cancel one handler's token; the capture's deinit cancels it again on the
  /// cancelling thread.
  @Test func everyCancelOfOneTokenThatReturnsHasReleasedItsCaptures() async {
    let violations = await race(rounds: stressRounds(20_000)) { round in
      let reentrant = Reentrant(bag: nil)
      let token = round.event.addHandler(round.witnesses.capturing(reentrant) { round.handlerRan() })
      reentrant.token.withLock { $0 = token }
      return { token.cancel() }
    }
    #expect(violations == 0)
  }

  /// Two threads cancel one group token (the token of several registrations, as the observation of
  /// several key paths returns); each reads `isCancelled` first, and a handler that starts after
  /// either saw `true` is a violation as well.
  @Test func everyGroupCancelThatReturnsOrReadsCancelledHasEndedItsParts() async {
    let violations = await race(rounds: stressRounds(3_000)) { round in
      let parts = (0..<32).map { _ in
        round.event.addHandler(round.witnesses.capturing(Reentrant(bag: nil)) { round.handlerRan() })
      }
      let group = SubscriptionGroup.subscription(for: parts)
      return {
        if group.isCancelled { round.cancelReturned() }
        group.cancel()
      }
    }
    #expect(violations == 0)
  }

  /// Two threads cancel one `HandlerSubscription(onCancel:)`: neither returns before the closure has run.
  @Test func everyCancelOfAClosureSubscriptionReturnsAfterItsClosureRan() async {
    let violations = await race(rounds: stressRounds(5_000)) { round in
      let ran = Atomic<Bool>(false)
      let parts = (0..<8).map { _ in
        round.event.addHandler(round.witnesses.capturing(Reentrant(bag: nil)) { round.handlerRan() })
      }
      let token = HandlerSubscription {
        for part in parts { part.cancel() }
        ran.store(true, ordering: .releasing)
      }
      return {
        token.cancel()
        if !ran.load(ordering: .acquiring) { round.violations.add(1, ordering: .relaxed) }
      }
    }
    #expect(violations == 0)
  }

  /// Runs `rounds` rounds on two threads of their own: thread 0 makes each round's cancel with
  /// `setUp`, both run it at once, then each records that its cancel returned, sends, and checks
  /// that every capture is released. Returns the number of violations; fails the test on a hang.
  private func race(rounds: Int, setUp: @escaping @Sendable (Round) -> @Sendable () -> Void) async -> Int {
    let barrier = RoundBarrier(parties: 2)
    let current = Locked<(Round, @Sendable () -> Void)?>(nil)
    let violations = Atomic<Int>(0)
    let finished = await onOwnThreads(0..<2) { thread in
      for _ in 0..<rounds {
        if thread == 0 {
          let round = Round()
          current.withLock { $0 = (round, setUp(round)) }
        }
        barrier.arriveAndWait()
        guard let (round, cancel) = current.withLock({ $0 }) else { continue }
        cancel()
        round.cancelReturned()
        round.event.send()
        if !round.witnesses.allReleased { round.violations.add(1, ordering: .relaxed) }
        barrier.arriveAndWait()
        if thread == 0 {
          violations.add(round.violations.load(ordering: .relaxed), ordering: .relaxed)
          current.withLock { $0 = nil }
        }
      }
    }
    #expect(finished, "a canceller did not return (a deadlock)")
    return violations.load(ordering: .relaxed)
  }
}

/// One round of a race: its event, the witnesses of its handlers' captures, and its violations.
private final class Round: Sendable {
  let event = Event<Void>()
  let witnesses = Witnesses()
  let violations = Atomic<Int>(0)
  /// Set once some canceller's cancel has returned (or read cancelled).
  let isCancelReturned = Atomic<Bool>(false)

  func cancelReturned() { isCancelReturned.store(true, ordering: .releasing) }

  /// Called by every handler: a delivery that starts after a cancel returned is a violation.
  func handlerRan() {
    if isCancelReturned.load(ordering: .acquiring) { violations.add(1, ordering: .relaxed) }
  }
}

/// What a round's handlers capture, remembered weakly.
private final class Witnesses: Sendable {
  private let objects = Locked<[WeakReentrant]>([])

  /// A handler that holds `object` until it is released.
  func capturing(_ object: Reentrant, _ body: @escaping @Sendable () -> Void) -> @Sendable (()) -> Void {
    objects.withLock { $0.append(WeakReentrant(object: object)) }
    return { _ in withExtendedLifetime(object) { body() } }
  }

  /// Whether every captured object is gone.
  var allReleased: Bool {
    objects.withLock { $0 }.allSatisfy { $0.object == nil }
  }
}

/// A weak reference to a ``Reentrant``.
///
/// `@unchecked Sendable`: a weak reference is read and cleared atomically by the runtime, and it is
/// written only by its init.
private struct WeakReentrant: @unchecked Sendable {
  weak var object: Reentrant?
}

/// A capture whose deinit cancels again, on the thread releasing it: its bag and its own token.
private final class Reentrant: Sendable {
  let bag: SubscriptionBag?
  let token = Locked<HandlerSubscription?>(nil)

  init(bag: SubscriptionBag?) { self.bag = bag }

  deinit {
    bag?.cancelAll()
    token.withLock { $0 }?.cancel()
  }
}

/// Lets a fixed number of threads start each round together.
private final class RoundBarrier: Sendable {
  private let parties: Int
  private let gate = GateLock<(arrived: Int, generation: Int)>((0, 0))

  init(parties: Int) { self.parties = parties }

  /// Returns once every party has arrived in this round.
  func arriveAndWait() {
    let generation = gate.withLock { state in
      let generation = state.generation
      state.arrived += 1
      if state.arrived == parties {
        state.arrived = 0
        state.generation += 1
      }
      return generation
    }
    gate.withLock(waitingWhile: { $0.generation == generation }) { _ in }
  }
}
