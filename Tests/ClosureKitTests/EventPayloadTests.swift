import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

/// Handlers are kept type-erased in the list's entries and called as the type they were stored
/// as: every kind of registration must hand over a payload of any shape intact.
@Suite struct EventPayloadTests {
  /// A payload passed indirectly (larger than the argument registers), with references in it.
  struct Wide: Sendable, Equatable {
    var name: String
    var values: [Int]
    var first: Int
    var second: Int
    var third: Double
    var label: String?
  }

  static let sample = Wide(
    name: "wide payload, long enough to be heap-allocated",
    values: [1, 2, 3],
    first: 7,
    second: -9,
    third: 2.5,
    label: "label"
  )

  @Test func everyKindOfRegistrationReceivesAWidePayloadIntact() async {
    let event = Event<Wide>()
    let owner = Tracked("owner")
    let received = Recorder<String>()
    let queued = Expectation(count: 2)
    let queue = DispatchQueue(label: "payload")
    let expected = Self.sample
    event.addHandler { payload in received.append("plain \(payload == expected)") }
    event.once { payload in received.append("once \(payload == expected)") }
    event.addHandler(owner: owner) { owner, payload in received.append("\(owner.name) \(payload == expected)") }
    event.addHandler(on: .queue(queue)) { payload in
      received.append("queue \(payload == expected)")
      queued.fulfill()
    }
    event.addHandler(owner: owner, on: .queue(queue)) { owner, payload in
      received.append("queued \(owner.name) \(payload == expected)")
      queued.fulfill()
    }
    event.send(Self.sample)
    #expect(await queued.wait(timeout: crossThreadDeadline))
    #expect(
      Set(received.values) == ["plain true", "once true", "owner true", "queue true", "queued owner true"]
    )
  }

  @Test func aSingleHandlerReceivesAWidePayloadIntact() {
    let event = Event<Wide>()
    let received = Recorder<Wide>()
    event.addHandler { received.append($0) }
    event.send(Self.sample)
    event.send(Self.sample)
    #expect(received.values == [Self.sample, Self.sample])
  }

  @Test func controlActionsReceiveAWidePayloadIntact() {
    let actions = ControlActions<TestKind, Wide>()
    let owner = Tracked("owner")
    let received = Recorder<String>()
    let expected = Self.sample
    actions.addAction(for: .up) { payload in received.append("plain \(payload == expected)") }
    actions.actions(for: [.up, .down]).addHandler(owner: owner) { owner, payload in
      received.append("\(owner.name) \(payload == expected)")
    }
    actions.sendActions(for: .up, with: Self.sample)
    actions.removeActions(for: .up)
    actions.sendActions(for: .down, with: Self.sample)
    #expect(received.values == ["plain true", "owner true", "owner true"])
  }
}
