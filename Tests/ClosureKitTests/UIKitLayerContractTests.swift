import ClosureKit
import Testing

/// The UIKit layer (ClosureKitUIKit, compiled out on Linux) registers one UIKit target per
/// control-event bit and fires `ControlActions` one bit at a time; these tests prove, on Linux, the
/// core behaviour that design relies on.
@Suite struct UIKitLayerContractTests {
  /// A 32-bit option set shaped like `UIControl.Event`, with composite members.
  struct ControlEvent: OptionSet, Sendable {
    let rawValue: UInt
    static let touchDown = ControlEvent(rawValue: 1 << 0)
    static let touchUpInside = ControlEvent(rawValue: 1 << 6)
    static let valueChanged = ControlEvent(rawValue: 1 << 12)
    static let allTouchEvents = ControlEvent(rawValue: 0x0000_0FFF)
  }

  @Test func anActionForACompositeEventRunsOncePerSingleBitSend() {
    let actions = ControlActions<ControlEvent, String>()
    let calls = Recorder<String>()
    actions.addAction(for: .allTouchEvents) { calls.append($0) }
    actions.sendActions(for: .touchDown, with: "down")
    actions.sendActions(for: .touchUpInside, with: "up")
    actions.sendActions(for: .valueChanged, with: "changed")
    #expect(calls.values == ["down", "up"])
  }

  @Test func theCountForABitDropsToZeroOnceItsEventIsRemovedSoItsTargetCanGo() {
    let actions = ControlActions<ControlEvent, Void>()
    actions.addAction(for: [.touchDown, .touchUpInside]) {}
    actions.addAction(for: .touchUpInside) {}
    actions.removeActions(for: .touchUpInside)
    #expect(actions.actionCount(for: .touchUpInside) == 0)
    #expect(actions.actionCount(for: .touchDown) == 1)
  }

  @Test func actionsAndTheirCapturesAreReleasedWithTheTableAttachedToTheControl() {
    weak var captured: Tracked?
    do {
      let actions = ControlActions<ControlEvent, Void>()
      let tracked = Tracked()
      captured = tracked
      actions.addAction(for: .touchUpInside) { _ = tracked }
    }
    #expect(captured == nil)
  }
}
