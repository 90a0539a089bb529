import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
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
    expectActionsReleasedWithTheirTable(for: ControlEvent.touchUpInside)
  }

  // MARK: Dialogs (AlertControllerPresenter)

  /// A presenter shaped like `AlertControllerPresenter`: UIKit's presentation completion reports
  /// the dialog on screen from another thread; a tap or the presenting task's cancellation (which
  /// hops, dismisses, then answers) answers through a once-only box, whichever comes first.
  final class ControllerLikePresenter: DialogPresenter {
    private let pending = Locked<CheckedContinuation<DialogAnswer, Never>?>(nil)
    let shown = Expectation()
    let dismissals = Recorder<String>()

    func present(_ request: DialogRequest) async -> DialogAnswer {
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          pending.withLock { $0 = continuation }
          DispatchQueue.global().async {
            request.reportPresented()  // the presentation completion
            self.shown.fulfill()
          }
        }
      } onCancel: {
        DispatchQueue.global().async {  // the hop to the main actor, then the dismissal
          self.dismissals.append("dismissed by cancellation")
          self.answer(.dismissed(textFieldValues: []))
        }
      }
    }

    /// A tap, or the end of a dismissal: the first answer wins, as in `DialogAnswerOnce`.
    func answer(_ answer: DialogAnswer) {
      let continuation = pending.withLock { pending in
        defer { pending = nil }
        return pending
      }
      continuation?.resume(returning: answer)
    }
  }

  /// An alert with a Cancel and an OK button whose actions and dismissal write to `log`.
  func makeAlert(loggingTo log: Recorder<String>) -> AlertDialog {
    let alert = AlertDialog(title: "T")
    alert.addButton("Cancel", role: .cancel) { _ in log.append("cancel action") }
    alert.addButton("OK") { _ in log.append("ok action") }
    alert.onDidDismiss { log.append("didDismiss \($0)") }
    return alert
  }

  @Test func cancellingTheTaskDismissesAShownControllerAndRunsTheCancelPathOnce() async throws {
    let log = Recorder<String>()
    let alert = makeAlert(loggingTo: log)
    alert.onDidPresent { log.append("didPresent") }
    alert.onWillDismiss { log.append("willDismiss \($0)") }
    let presenter = ControllerLikePresenter()
    let task = Task { try await alert.present(on: presenter) }
    #expect(await presenter.shown.wait(timeout: crossThreadDeadline))
    task.cancel()
    let result = try await task.value
    presenter.answer(.button(1, textFieldValues: []))  // a tap after the dismissal: no effect
    #expect(result.isDismissed && result.index == 0)
    #expect(log.values == ["didPresent", "cancel action", "willDismiss 0", "didDismiss 0"])
    #expect(presenter.dismissals.values == ["dismissed by cancellation"])
  }

  @Test func aTapBeforeTheCancellationWinsAndTheCancellationAddsNothing() async throws {
    let log = Recorder<String>()
    let alert = makeAlert(loggingTo: log)
    let presenter = ControllerLikePresenter()
    let task = Task { try await alert.present(on: presenter) }
    #expect(await presenter.shown.wait(timeout: crossThreadDeadline))
    presenter.answer(.button(1, textFieldValues: []))
    task.cancel()
    let result = try await task.value
    #expect(result.index == 1 && !result.isDismissed)
    #expect(log.values == ["ok action", "didDismiss 1"])
  }
}
