import ClosureKitTestSupport
import ClosureKitTesting
import Synchronization
import Testing

@testable import ClosureKit

/// The registry behind `Event` and `ControlActions` checked against a simple model: random
/// operations (adds with and without an owner, one-shots, cancels, bags, owners dying, sends,
/// removal by kind), with the registry's invariants (`verifyInvariants()`) checked after every one.
@Suite struct RegistryModelTests {
  final class Owner: Sendable {}

  /// One handler of the model: what the registry must do with it.
  struct ModelHandler {
    let id: Int
    let isOnce: Bool
    let owner: Int?
    var kinds: UInt8
    var isLive = true
  }

  /// One thread: operations on one event and one control, each followed by the invariants, the
  /// model's live handlers, which handlers a send calls and in what order, and which captures are
  /// released (at once for a cancel, a one-shot's run and a bag; by the next send or count for a
  /// dead owner).
  ///
  /// CPU-bound for seconds, so it runs on a thread of its own, not on the cooperative pool (two
  /// threads here, which every other test's tasks need); its findings come back as strings.
  @Test(.heavy, arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func randomOperationsMatchTheModel(seed: UInt64) async {
    let failures = Recorder<String>()
    await onNewThread { Self.runModel(seed: seed, failures: failures) }
    #expect(failures.values.isEmpty, "seed \(seed): \(failures.values.prefix(5))")
  }

  static func runModel(seed: UInt64, failures: Recorder<String>) {
    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition { failures.append(message()) }
    }
    var random = SeededGenerator(seed: seed)
    let event = Event<Int>()
    let controls = ControlActions<TestKinds, Int>()
    let calls = Log()
    let released = Log()
    var releasedSoFar: Set<Int> = []
    var model: [ModelHandler] = []
    var tokens: [Int: HandlerSubscription] = [:]
    var owners: [Int: Owner] = [:]
    var bag: SubscriptionBag? = SubscriptionBag()
    var bagged: [Int] = []
    var nextID = 0
    for step in 0..<modelRounds(2_000) {
      let isControl = nextID % 3 == 2
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<40:  // add
        let id = nextID
        nextID += 1
        let isOnce = !isControl && Bool.random(using: &random)
        let ownerID = Bool.random(using: &random) ? Int.random(in: 0..<4, using: &random) : nil
        let capture = CallsOnDeinit { released.append(id) }
        let kinds = UInt8.random(in: 1...7, using: &random)
        let token: HandlerSubscription
        if isControl {
          if let ownerID {
            let owner = owners[ownerID] ?? Owner()
            owners[ownerID] = owner
            token = controls.actions(for: TestKinds(rawValue: kinds)).addHandler(owner: owner) { _, _ in
              withExtendedLifetime(capture) { calls.append(id) }
            }
          } else {
            token = controls.addAction(for: TestKinds(rawValue: kinds)) { _ in
              withExtendedLifetime(capture) { calls.append(id) }
            }
          }
        } else if let ownerID {
          let owner = owners[ownerID] ?? Owner()
          owners[ownerID] = owner
          let body: @Sendable (Owner, Int) -> Void = { _, _ in withExtendedLifetime(capture) { calls.append(id) } }
          token = isOnce ? event.once(owner: owner, body) : event.addHandler(owner: owner, body)
        } else {
          let body: @Sendable (Int) -> Void = { _ in withExtendedLifetime(capture) { calls.append(id) } }
          token = isOnce ? event.once(body) : event.addHandler(body)
        }
        tokens[id] = token
        model.append(ModelHandler(id: id, isOnce: isOnce, owner: ownerID, kinds: isControl ? kinds : 0))
        if Int.random(in: 0..<4, using: &random) == 0 {
          token.store(in: bag!)
          bagged.append(id)
        }
      case 40..<55:  // cancel
        guard let victim = model.indices.randomElement(using: &random) else { continue }
        tokens[model[victim].id]?.cancel()
        model[victim].isLive = false
      case 55..<62:  // an owner dies
        guard let ownerID = owners.keys.randomElement(using: &random) else { continue }
        owners[ownerID] = nil
        for index in model.indices where model[index].owner == ownerID { model[index].isLive = false }
      case 62..<66:  // the bag ends
        if Bool.random(using: &random) { bag = nil } else { bag?.cancelAll() }
        for index in model.indices where bagged.contains(model[index].id) { model[index].isLive = false }
        bagged = []
        if bag == nil { bag = SubscriptionBag() }
      case 66..<72:  // remove a control's actions by kind
        let kinds = UInt8.random(in: 1...7, using: &random)
        controls.removeActions(for: TestKinds(rawValue: kinds))
        for index in model.indices where model[index].kinds != 0 && model[index].isLive {
          model[index].kinds &= ~kinds
          if model[index].kinds == 0 { model[index].isLive = false }
        }
      default:  // send
        if Bool.random(using: &random) {
          event.send(step)
          let expected = model.filter { $0.isLive && $0.kinds == 0 }.map(\.id)
          check(calls.take() == expected, "step \(step): an event's send")
          for index in model.indices where model[index].isLive && model[index].isOnce { model[index].isLive = false }
        } else {
          let kind = TestKinds(rawValue: 1 << UInt8.random(in: 0..<3, using: &random))
          controls.sendActions(for: kind, with: step)
          let expected = model.filter { $0.isLive && $0.kinds & kind.rawValue != 0 }.map(\.id)
          check(calls.take() == expected, "step \(step): a control's send")
        }
      }
      check(event.list.verifyInvariants() && controls.list.verifyInvariants(), "step \(step)")
      let live = model.filter(\.isLive)
      check(event.handlerCount == live.filter { $0.kinds == 0 }.count, "step \(step): the event's count")
      check(controls.actionCount(for: .all) == live.filter { $0.kinds != 0 }.count, "step \(step)")
      // Counting swept the dead owners: every ended handler's captures are gone, no live one's.
      releasedSoFar.formUnion(released.take())
      check(releasedSoFar == Set(model.filter { !$0.isLive }.map(\.id)), "step \(step): releases")
      // Ids are the model's indices.
      check(tokens.allSatisfy { id, token in token.isCancelled == !model[id].isLive }, "step \(step): tokens")
    }
  }

  /// Several threads at once, each with its own handlers, owners and bag on one shared event,
  /// sending too: the invariants hold after every operation, no handler starts after its
  /// `cancel()` returned, a one-shot runs at most once, and at the end every capture is released.
  @Test(.heavy) func manyThreadsAddingCancellingSendingAndOwnersDyingKeepTheInvariants() async {
    let event = Event<Int>()
    let liveCaptures = Shared(0)
    let violations = Recorder<String>()
    // Tickets order cancels and sends: a send's payload is a ticket taken as it starts; a cancel's
    // ticket is taken after it returns. A handler called by a send whose ticket is later than its
    // cancel's is a delivery that started after `cancel()` returned.
    let tickets = Shared(0)
    let threads = 4
    let rounds = modelRounds(4_000)
    let finished = await onOwnThreads(0..<threads) { thread in
      var random = SeededGenerator(seed: UInt64(thread) &* 7919 &+ 1)
      var tokens: [(HandlerSubscription, Shared<Int>)] = []
      var owners: [Owner] = []
      var bag = SubscriptionBag()
      for _ in 0..<rounds {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<35:
          let cancelledAt = Shared(0)
          let calls = Shared(0)
          let isOnce = Bool.random(using: &random)
          liveCaptures.value.add(1, ordering: .relaxed)
          let capture = CallsOnDeinit { liveCaptures.value.subtract(1, ordering: .relaxed) }
          let body: @Sendable (Int) -> Void = { ticket in
            withExtendedLifetime(capture) {
              let cancelled = cancelledAt.value.load(ordering: .sequentiallyConsistent)
              if cancelled != 0, ticket > cancelled {
                violations.append("a handler started after its cancel() returned")
              }
              if calls.value.add(1, ordering: .relaxed).newValue > 1, isOnce {
                violations.append("a one-shot ran twice")
              }
            }
          }
          let token: HandlerSubscription
          if Bool.random(using: &random) {
            let owner = Owner()
            owners.append(owner)
            token =
              isOnce
              ? event.once(owner: owner) { _, value in body(value) }
              : event.addHandler(owner: owner) { _, value in body(value) }
          } else {
            token = isOnce ? event.once(body) : event.addHandler(body)
          }
          if Bool.random(using: &random) { token.store(in: bag) } else { tokens.append((token, cancelledAt)) }
        case 35..<55:
          guard !tokens.isEmpty else { continue }
          let (token, cancelledAt) = tokens.remove(at: Int.random(in: 0..<tokens.count, using: &random))
          token.cancel()
          cancelledAt.value.store(
            tickets.value.add(1, ordering: .sequentiallyConsistent).newValue, ordering: .sequentiallyConsistent)
        case 55..<65:
          if !owners.isEmpty { owners.remove(at: Int.random(in: 0..<owners.count, using: &random)) }
        case 65..<68:
          bag = SubscriptionBag()
        default:
          event.send(tickets.value.add(1, ordering: .sequentiallyConsistent).newValue)
        }
        if !event.list.verifyInvariants() { violations.append("invariants") }
      }
      for (token, cancelledAt) in tokens {
        token.cancel()
        cancelledAt.value.store(
          tickets.value.add(1, ordering: .sequentiallyConsistent).newValue, ordering: .sequentiallyConsistent)
      }
      bag.cancelAll()
      owners.removeAll()
    }
    #expect(finished)
    event.send(.max)
    #expect(event.handlerCount == 0)
    #expect(event.list.verifyInvariants())
    #expect(liveCaptures.value.load(ordering: .relaxed) == 0)
    #expect(violations.values.isEmpty, "\(Set(violations.values))")
  }
}

/// The steps of a model run: `rounds` in a plain build, far fewer under the sanitizers, where every
/// step's O(n) checks run 10 to 50 times slower (``stressRounds(_:)`` keeps at least 1,000, which
/// held the threads past the deadline there and starved the tests beside them).
func modelRounds(_ rounds: Int) -> Int {
  if isUnderThreadSanitizer { return rounds / 20 }
  if isUnderAddressSanitizer { return rounds / 5 }
  return rounds
}

/// What handlers append to; read and emptied by the test.
final class Log: Sendable {
  private let storage = Locked<[Int]>([])
  func append(_ value: Int) { storage.withLock { $0.append(value) } }
  func take() -> [Int] {
    storage.withLock { values in
      defer { values = [] }
      return values
    }
  }
}

/// An atomic that closures and arrays can share.
final class Shared<Value: AtomicRepresentable & Sendable>: Sendable {
  let value: Atomic<Value>
  init(_ initial: Value) { value = Atomic(initial) }
}

/// Three kinds of control event for the model test.
struct TestKinds: OptionSet, Sendable {
  let rawValue: UInt8
  static let all = TestKinds(rawValue: 7)
}
