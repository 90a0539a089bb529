import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

/// `isPresented` on `AlertDialog` and `ActionSheetDialog` (issue 30, item 6): true from will-present until
/// did-dismiss, with every presenter.
@Suite struct DialogIsPresentedTests {
  /// Records `isPresented` at every moment of an alert's life.
  private func recordIsPresented(of alert: AlertDialog, into log: Recorder<String>) {
    alert.onWillPresent { log.append("willPresent \(alert.isPresented)") }
    alert.onDidPresent { log.append("didPresent \(alert.isPresented)") }
    alert.onWillDismiss { _ in log.append("willDismiss \(alert.isPresented)") }
    alert.onDidDismiss { _ in log.append("didDismiss \(alert.isPresented)") }
  }

  @Test func anAlertIsPresentedFromWillPresentUntilDidDismiss() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in log.append("action \(alert.isPresented)") }
    alert.setHandler { _ in log.append("handler \(alert.isPresented)") }
    recordIsPresented(of: alert, into: log)
    #expect(!alert.isPresented)
    _ = try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(!alert.isPresented)
    #expect(
      log.values == [
        "willPresent true", "didPresent true", "action true", "handler true", "willDismiss true",
        "didDismiss true",
      ])
  }

  @Test func anActionSheetIsPresentedFromWillPresentUntilDidDismiss() async throws {
    let log = Recorder<String>()
    let sheet = ActionSheetDialog(title: "T")
    sheet.addButton("Camera") { _ in log.append("action \(sheet.isPresented)") }
    sheet.onWillPresent { log.append("willPresent \(sheet.isPresented)") }
    sheet.onDidDismiss { _ in log.append("didDismiss \(sheet.isPresented)") }
    #expect(!sheet.isPresented)
    _ = try await sheet.present(on: ScriptedPresenter([.choose(0)]))
    #expect(!sheet.isPresented)
    #expect(log.values == ["willPresent true", "action true", "didDismiss true"])
  }

  @Test func aDismissedAlertIsNotPresentedAfterPresentReturns() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("Cancel", role: .cancel)
    recordIsPresented(of: alert, into: log)
    let result = try await alert.present(on: ScriptedPresenter([.dismiss]))
    #expect(result.isDismissed)
    #expect(!alert.isPresented)
    #expect(log.values == ["willPresent true", "didPresent true", "willDismiss true", "didDismiss true"])
  }

  @Test func anAlertShownByAPresenterIsPresentedToOtherThreadsUntilItIsAnsweredByCancellation() async throws {
    let alert = AlertDialog(title: "T")
    alert.addButton("Cancel", role: .cancel)
    let (shown, shownContinuation) = AsyncStream.makeStream(of: Void.self)
    alert.onDidPresent { shownContinuation.yield() }
    let task = Task { try await alert.present(on: ScriptedPresenter([.waitUntilCancelled])) }
    for await _ in shown { break }  // on screen: the presenter waits for the cancellation
    let seenElsewhere = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: alert.isPresented) }
    }
    #expect(seenElsewhere)
    task.cancel()
    _ = try await task.value
    #expect(!alert.isPresented)
  }

  @Test func aSecondPresentationThatThrowsDoesNotChangeIsPresented() async throws {
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    _ = try await alert.present(on: ScriptedPresenter([.choose(0)]))
    await #expect(throws: DialogError.alreadyPresented) {
      try await alert.present(on: ScriptedPresenter([.choose(0)]))
    }
    #expect(!alert.isPresented)
  }

  @Test func isPresentedMayBeReadFromManyThreadsWhileTheAlertIsPresented() async throws {
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    let readsWhilePresented = Counter()
    alert.onDidPresent {
      DispatchQueue.concurrentPerform(iterations: 64) { _ in
        if alert.isPresented { readsWhilePresented.increment() }
      }
    }
    _ = try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(readsWhilePresented.value == 64)
    #expect(!alert.isPresented)
  }
}
