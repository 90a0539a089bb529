import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Observation
import Testing

@testable import ClosureKit

/// A kind set for the control-action source.
struct SourceKind: OptionSet, Sendable {
  let rawValue: Int
  static let up = SourceKind(rawValue: 1 << 0)
  static let down = SourceKind(rawValue: 1 << 1)
}

/// What the four registrations of one source recorded.
final class FourRecords: Sendable {
  let plain = Recorder<Int>()
  let owned = Recorder<Int>()
  let once = Recorder<Int>()
  let onceOwned = Recorder<Int>()
}

/// Registers the four `HandlerSource` methods on `source`, each recording `value(payload)`, the
/// owner-bound ones bound to an owner that the caller drops with `dropOwner`.
func registerFour<Source: HandlerSource>(
  on source: Source,
  value: @escaping @Sendable (Source.Payload) -> Int
) -> (records: FourRecords, owner: Tracked, plainToken: HandlerSubscription) {
  let records = FourRecords()
  let owner = Tracked("owner")
  let plainToken = source.addHandler { records.plain.append(value($0)) }
  source.addHandler(owner: owner) { owner, payload in
    #expect(owner.name == "owner")
    records.owned.append(value(payload))
  }
  source.once { records.once.append(value($0)) }
  source.once(owner: owner) { _, payload in records.onceOwned.append(value(payload)) }
  return (records, owner, plainToken)
}

/// Fires 1 and 2, drops the owner, fires 3, cancels the plain handler, fires 4; then checks what
/// each registration saw: every value until cancelled, until the owner died, the first only.
func checkFour<Source: HandlerSource>(
  _ source: Source,
  value: @escaping @Sendable (Source.Payload) -> Int,
  fire: (Int) -> Void
) {
  var (records, owner, plainToken): (FourRecords, Tracked?, HandlerSubscription) = registerFour(
    on: source, value: value)
  weak let weakOwner = owner
  fire(1)
  fire(2)
  owner = nil
  #expect(weakOwner == nil, "the source must hold the owner weakly")
  fire(3)
  plainToken.cancel()
  fire(4)
  #expect(records.plain.values == [1, 2, 3])
  #expect(records.owned.values == [1, 2])
  #expect(records.once.values == [1])
  #expect(records.onceOwned.values == [1])
  _ = (records, owner)
}

/// `eventually(within:_:)` for a main-actor test: yields the main actor (so the hops enqueued on
/// the main queue run) until `condition` holds or the deadline passes; never sleeps.
@MainActor func eventuallyOnMainActor(_ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + crossThreadDeadline
  while !condition() {
    if ContinuousClock.now > deadline { return false }
    await Task.yield()
  }
  return true
}

/// `checkFour` for an `@Observable` key path written on the main actor, whose post callbacks hop
/// to the main queue: writes 1 and 2, drops the owner, writes 3, cancels the plain handler.
@MainActor func checkFourOnMainActor<Source: HandlerSource<Change<Int>>>(
  _ source: Source, write: (Int) -> Void
) async {
  var (records, heldOwner, plainToken): (FourRecords, Tracked?, HandlerSubscription) = registerFour(on: source) {
    $0.newValue!
  }
  weak let weakOwner = heldOwner
  for value in 1...2 {
    write(value)
    #expect(await eventuallyOnMainActor { records.plain.values.last == value && records.owned.values.last == value })
  }
  heldOwner = nil
  #expect(weakOwner == nil)
  write(3)
  #expect(await eventuallyOnMainActor { records.plain.values.last == 3 })
  plainToken.cancel()
  #expect(records.plain.values == [1, 2, 3])
  #expect(records.owned.values == [1, 2])
  #expect(records.once.values == [1])
  #expect(records.onceOwned.values == [1])
  _ = (records, heldOwner)
}

@Suite struct HandlerSourceTests {
  @Test func eventOffersTheFourRegistrations() {
    let event = Event<Int>()
    checkFour(event, value: { $0 }, fire: event.send)
    #expect(event.handlerCount == 0)
  }

  @Test func controlActionsForKindsOfferTheFourRegistrations() {
    let actions = ControlActions<SourceKind, Int>()
    checkFour(actions.actions(for: [.up, .down]), value: { $0 }) { actions.sendActions(for: .down, with: $0) }
    #expect(actions.actionCount(for: .up) == 0)
  }

  @Test func controlActionsForKindsRegisterForTheSelectedKindsOnly() {
    let actions = ControlActions<SourceKind, Int>()
    let seen = Recorder<Int>()
    actions.actions(for: .up).addHandler { seen.append($0) }
    actions.sendActions(for: .down, with: 1)
    actions.sendActions(for: .up, with: 2)
    #expect(seen.values == [2])
  }

  @Test func observedOfferTheFourRegistrations() {
    let box = Observed(0)
    checkFour(box.observing(), value: { $0.newValue! }) { box.value = $0 }
    #expect(box.observerCount == 0)
  }

  @Test func observedOnceWithInitialRunsForTheInitialCallbackOnly() {
    let box = Observed(7)
    let seen = Recorder<Int>()
    box.observing([.initial, .new]).once { seen.append($0.newValue!) }
    box.value = 8
    #expect(seen.values == [7])
    #expect(box.observerCount == 0)
  }

  @Test func observingKeepsTheOptionsSemantics() {
    let box = Observed(1)
    let seen = Recorder<String>()
    box.observing([.old, .new, .prior]).addHandler { change in
      let old = change.oldValue.map(String.init) ?? "-"
      let new = change.newValue.map(String.init) ?? "-"
      seen.append("\(change.isPrior) \(old) \(new)")
    }
    box.value = 2
    #expect(seen.values == ["true 1 -", "false 1 2"])
  }

  /// Written on the main actor, so each post callback's hop is enqueued on the main queue behind
  /// the write (the exact case; writes from other threads are best effort, see Observation.md).
  @Test @MainActor func observableKeyPathOffersTheFourRegistrations() async {
    let model = SharedCounter()
    await checkFourOnMainActor(model.observing(\.value)) { model.value = $0 }
  }

  @Test @MainActor func mainActorObservableKeyPathOffersTheFourRegistrations() async {
    let model = MainActorCounter()
    await checkFourOnMainActor(model.observing(\.count)) { model.count = $0 }
  }

  @Test func onceRunsExactlyOnceWhenManyThreadsFire() async {
    let box = Observed(0)
    let runs = Counter()
    box.observing().once { _ in runs.increment() }
    let finished = await onOwnThreads(0..<4) { thread in
      for round in 0..<200 { box.value = thread * 1_000 + round }
    }
    #expect(finished)
    #expect(runs.value == 1)
    #expect(box.observerCount == 0)
  }

  @Test func aOnceHandlerReleasesItsCapturesAfterRunning() {
    let box = Observed(0)
    weak var weakCaptured: Tracked?
    do {
      let captured = Tracked()
      weakCaptured = captured
      box.observing().once { _ in _ = captured }
    }
    #expect(weakCaptured != nil)
    box.value = 1
    #expect(weakCaptured == nil)
  }

  @Test func aGenericFunctionTakesAnySource() {
    func record<Source: HandlerSource<Int>>(_ source: Source, into recorder: Recorder<Int>) {
      source.addHandler { recorder.append($0) }
    }
    let event = Event<Int>()
    let actions = ControlActions<SourceKind, Int>()
    let seen = Recorder<Int>()
    record(event, into: seen)
    record(actions.actions(for: .up), into: seen)
    event.send(1)
    actions.sendActions(for: .up, with: 2)
    #expect(seen.values == [1, 2])
  }
}
