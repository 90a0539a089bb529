import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

struct TestKind: OptionSet, Sendable {
  let rawValue: Int
  static let down = TestKind(rawValue: 1 << 0)
  static let up = TestKind(rawValue: 1 << 1)
  static let changed = TestKind(rawValue: 1 << 2)
}

/// Expects an action for `kind` and what it captured to be released with its table.
func expectActionsReleasedWithTheirTable<Kind: OptionSet & Sendable>(
  for kind: Kind, sourceLocation: SourceLocation = #_sourceLocation
) where Kind.Element == Kind {
  let witness = CaptureWitness()
  do {
    let actions = ControlActions<Kind, Void>()
    actions.addAction(for: kind, witness.capturing {})
  }
  #expect(witness.isReleased, sourceLocation: sourceLocation)
}

/// The UIControl model: actions by kind, each run once per matching send.
@Suite struct ControlActionsTests {
  @Test func anActionForTwoKindsRunsOncePerKindAndNeverTwiceForOneSend() {
    let actions = ControlActions<TestKind, String>()
    let calls = Recorder<String>()
    actions.addAction(for: [.down, .up]) { calls.append($0) }
    actions.sendActions(for: .down, with: "d")
    actions.sendActions(for: .up, with: "u")
    actions.sendActions(for: [.down, .up], with: "both")
    actions.sendActions(for: .changed, with: "c")
    #expect(calls.values == ["d", "u", "both"])
  }

  @Test func actionsRunInRegistrationOrder() {
    let actions = ControlActions<TestKind, Void>()
    let calls = Recorder<Int>()
    actions.addAction(for: .up) { calls.append(1) }
    actions.addAction(for: [.up, .down]) { calls.append(2) }
    actions.addAction(for: .up) { calls.append(3) }
    actions.sendActions(for: .up)
    #expect(calls.values == [1, 2, 3])
  }

  @Test func removeActionsRemovesOnlyTheGivenKinds() {
    let actions = ControlActions<TestKind, Void>()
    let calls = Recorder<String>()
    actions.addAction(for: [.down, .up]) { calls.append("both") }
    actions.addAction(for: .down) { calls.append("down") }
    actions.removeActions(for: .down)
    #expect(actions.actionCount(for: .down) == 0)
    #expect(actions.actionCount(for: .up) == 1)
    actions.sendActions(for: .down)
    actions.sendActions(for: .up)
    #expect(calls.values == ["both"])
  }

  @Test func theTokenRemovesOneAction() {
    let actions = ControlActions<TestKind, Void>()
    let calls = Recorder<String>()
    let first = actions.addAction(for: .up) { calls.append("first") }
    actions.addAction(for: .up) { calls.append("second") }
    first.cancel()
    actions.sendActions(for: .up)
    #expect(calls.values == ["second"])
    #expect(actions.actionCount(for: .up) == 1)
  }

  @Test func anOwnerBoundActionEndsWithItsOwner() {
    let actions = ControlActions<TestKind, Int>()
    let calls = Recorder<String>()
    let witness = CaptureWitness()
    var owner: Tracked? = Tracked("screen")
    actions.actions(for: .up).addHandler(
      owner: owner!, witness.capturing { owner, value in calls.append("\(owner.name) \(value)") })
    actions.sendActions(for: .up, with: 1)
    owner = nil
    actions.sendActions(for: .up, with: 2)
    #expect(calls.values == ["screen 1"])
    #expect(witness.isReleased)
    #expect(actions.actionCount(for: .up) == 0)
  }

  @Test func deallocatingTheControlReleasesItsActions() {
    expectActionsReleasedWithTheirTable(for: TestKind.up)
  }

  @Test @MainActor func mainActorActionsRunOnTheMainActor() async {
    let actions = ControlActions<TestKind, Int>()
    let calls = Recorder<String>()
    let done = Expectation(count: 2)
    let owner = Tracked("screen")
    actions.actions(for: .up).onMainActor.addHandler { value in
      calls.append("plain \(value)")
      done.fulfill()
    }
    actions.actions(for: .up).onMainActor.addHandler(owner: owner) { owner, value in
      calls.append("\(owner.name) \(value)")
      done.fulfill()
    }
    DispatchQueue.global().async { actions.sendActions(for: .up, with: 1) }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(calls.values == ["plain 1", "screen 1"])
  }

  @Test(.exitTest) func anEmptyKindSetIsAPreconditionFailureNamingTheArgument() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ControlActions<TestKind, Void>().addAction(for: []) {}
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("`kinds` must not be empty"))
  }
}
