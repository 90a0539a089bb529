import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A presenter that answers with a fixed answer, whatever it is shown.
struct FixedPresenter: DialogPresenter {
  let answer: DialogAnswer
  func present(_ request: DialogRequest) async -> DialogAnswer { answer }
}

@Suite struct DialogTests {
  // MARK: Indices

  @Test func addButtonReturnsIndicesInTheOrderButtonsAreAdded() {
    let alert = AlertDialog(title: "T")
    #expect(alert.addButton("A") == 0)
    #expect(alert.addButton("B", role: .cancel) == 1)
    #expect(alert.addButton("C", role: .destructive) == 2)
    #expect(alert.buttons.map(\.title) == ["A", "B", "C"])
    #expect(alert.buttons.map(\.role) == [.default, .cancel, .destructive])
    #expect(alert.cancelButtonIndex == 1)
  }

  @Test func classicAlertNumbersCancelZeroAndTheOthersFromOne() async throws {
    let received = Recorder<Int>()
    let alert = AlertDialog(title: "T", message: "M", cancelButtonTitle: "Cancel", otherButtonTitles: "One", "Two") {
      received.append($0)
    }
    #expect(
      alert.buttons == [
        DialogButton(title: "Cancel", role: .cancel), DialogButton(title: "One", role: .default),
        DialogButton(title: "Two", role: .default),
      ])
    #expect(alert.cancelButtonIndex == 0)
    let result = try await alert.present(on: ScriptedPresenter([.chooseTitled("Two")]))
    #expect(result.index == 2)
    #expect(result.title == "Two")
    #expect(received.values == [2])
  }

  @Test func classicAlertWithoutCancelNumbersTheOthersFromZero() async throws {
    let received = Recorder<Int>()
    let alert = AlertDialog(title: "T", cancelButtonTitle: nil, otherButtonTitles: "One", "Two") { received.append($0) }
    #expect(alert.cancelButtonIndex == nil)
    _ = try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(received.values == [0])
  }

  @Test func classicActionSheetNumbersDestructiveFirstThenOthersThenCancelLast() async throws {
    let received = Recorder<Int>()
    let sheet = ActionSheetDialog(
      title: "T",
      cancelButtonTitle: "Cancel",
      destructiveButtonTitle: "Delete",
      otherButtonTitles: "Share",
      "Print"
    ) { received.append($0) }
    #expect(sheet.buttons.map(\.title) == ["Delete", "Share", "Print", "Cancel"])
    #expect(sheet.destructiveButtonIndex == 0)
    #expect(sheet.cancelButtonIndex == 3)
    #expect(sheet.addButton("Later") == 4)
    let result = try await sheet.present(on: ScriptedPresenter([.chooseTitled("Print")]))
    #expect(result.index == 2)
    #expect(received.values == [2])
  }

  // MARK: Exactly once

  @Test func chosenActionRunsOnceThenTheWholeDialogHandlerBeforePresentReturns() async throws {
    let calls = Recorder<String>()
    let alert = AlertDialog(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") {
      calls.append("handler \($0)")
    }
    alert.addButton("More") { result in calls.append("More \(result.index ?? -9)") }
    let result = try await alert.present(on: ScriptedPresenter([.choose(2)]))
    #expect(calls.values == ["More 2", "handler 2"])
    #expect(result == DialogResult(index: 2, title: "More", textFieldValues: [], isDismissed: false))
  }

  @Test func actionsOfButtonsNotChosenNeverRun() async throws {
    let calls = Recorder<String>()
    let sheet = ActionSheetDialog(title: "T")
    for title in ["A", "B", "C"] { sheet.addButton(title) { _ in calls.append(title) } }
    _ = try await sheet.present(on: ScriptedPresenter([.choose(1)]))
    #expect(calls.values == ["B"])
  }

  @Test func presentingTwiceThrowsAlreadyPresentedAndRunsNothingAgain() async throws {
    let calls = Counter()
    let alert = AlertDialog(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") { _ in calls.increment() }
    _ = try await alert.present(on: ScriptedPresenter([.choose(1)]))
    await #expect(throws: DialogError.alreadyPresented) {
      try await alert.present(on: ScriptedPresenter([.choose(1)]))
    }
    #expect(calls.value == 1)
  }

  @Test func concurrentPresentationsOfOneDialogAnswerOnce() async {
    let calls = Counter()
    let alert = AlertDialog(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") { _ in calls.increment() }
    let presenter = ScriptedPresenter(Array(repeating: .choose(1), count: 8))
    let outcomes = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask { (try? await alert.present(on: presenter)) != nil }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(outcomes.filter { $0 }.count == 1)
    #expect(calls.value == 1)
    #expect(presenter.presentedRequests.count == 1)
  }

  @Test func closuresRunOutsideTheLockSoTheyMayUseTheDialogAgain() async throws {
    let seen = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in seen.append("action sees \(alert.buttons.count) buttons") }
    alert.addButton("Cancel", role: .cancel)
    let result = try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(result.index == 0)
    #expect(seen.values == ["action sees 2 buttons"])
    await #expect(throws: DialogError.alreadyPresented) { try await alert.present(on: ScriptedPresenter([])) }
  }

  // MARK: Dismissal

  @Test func dismissalChoosesTheCancelButton() async throws {
    let calls = Recorder<String>()
    let alert = AlertDialog(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") {
      calls.append("handler \($0)")
    }
    let sheet = ActionSheetDialog(title: "T")
    sheet.addButton("Share") { _ in calls.append("Share") }
    sheet.addButton("Close", role: .cancel) { result in calls.append("Close dismissed=\(result.isDismissed)") }
    let alertResult = try await alert.present(on: ScriptedPresenter([.dismiss]))
    let sheetResult = try await sheet.present(on: ScriptedPresenter([]))  // the script ran out: end of input
    #expect(alertResult == DialogResult(index: 0, title: "Cancel", textFieldValues: [], isDismissed: true))
    #expect(sheetResult == DialogResult(index: 1, title: "Close", textFieldValues: [], isDismissed: true))
    #expect(calls.values == ["handler 0", "Close dismissed=true"])
  }

  @Test func dismissalWithoutACancelButtonReportsDismissed() async throws {
    let calls = Recorder<Int>()
    let alert = AlertDialog(title: "T", cancelButtonTitle: nil, otherButtonTitles: "A", "B") { calls.append($0) }
    let result = try await alert.present(on: ScriptedPresenter([.dismiss]))
    #expect(result.index == nil)
    #expect(result.title == nil)
    #expect(result.isDismissed)
    #expect(calls.values == [DialogResult.dismissedIndex])
    #expect(DialogResult.dismissedIndex == -1)
  }

  // MARK: Text fields and validation

  @Test func textFieldValuesReachTheActionTheHandlerAndTheResult() async throws {
    let seen = Recorder<[String]>()
    let login = AlertDialog(title: "Sign in")
    #expect(login.addTextField(placeholder: "Name") == 0)
    #expect(login.addTextField(placeholder: "Password", isSecure: true) == 1)
    login.addButton("OK") { result in seen.append(result.textFieldValues) }
    let presenter = ScriptedPresenter([.enterText(["bob", "hunter2"]), .choose(0)])
    let result = try await login.present(on: presenter)
    #expect(result.textFieldValues == ["bob", "hunter2"])
    #expect(seen.values == [["bob", "hunter2"]])
    #expect(
      presenter.presentedRequests.first?.textFields == [
        DialogTextField(placeholder: "Name", isSecure: false), DialogTextField(placeholder: "Password", isSecure: true),
      ])
  }

  @Test func validationDisablesEveryButtonButCancelUntilTheTextIsValid() async throws {
    let login = AlertDialog(title: "Sign in")
    login.addTextField(placeholder: "Name")
    login.addButton("Cancel", role: .cancel)
    login.addButton("Sign in")
    login.addButton("Delete", role: .destructive)
    login.enableButtons { values in !values[0].isEmpty }
    let presenter = ScriptedPresenter([
      .choose(1), .chooseTitled("Delete"), .enterText(["bob"]), .choose(1),
    ])
    let result = try await login.present(on: presenter)
    #expect(presenter.rejectedSteps == [.choose(1), .chooseTitled("Delete")])
    #expect(result.index == 1)
    #expect(result.textFieldValues == ["bob"])
  }

  @Test func requestReportsCancelAlwaysEnabledAndOthersByTheRule() {
    let request = DialogRequest(
      style: .alert,
      title: "T",
      message: nil,
      buttons: [DialogButton(title: "Cancel", role: .cancel), DialogButton(title: "OK", role: .default)],
      textFields: [DialogTextField(placeholder: "Name", isSecure: false)]
    ) { values in values[0] == "ok" }
    #expect(request.isButtonEnabled(at: 0, textFieldValues: [""]))
    #expect(!request.isButtonEnabled(at: 1, textFieldValues: [""]))
    #expect(request.isButtonEnabled(at: 1, textFieldValues: ["ok"]))
    #expect(!request.isButtonEnabled(at: 2, textFieldValues: ["ok"]))
    #expect(request.cancelButtonIndex == 0)
  }

  @Test func dismissedWhileTextIsInvalidStillChoosesCancelWithTheText() async throws {
    let login = AlertDialog(title: "T")
    login.addTextField()
    login.addButton("Cancel", role: .cancel)
    login.addButton("OK")
    login.enableButtons { _ in false }
    let result = try await login.present(on: ScriptedPresenter([.enterText(["x"]), .choose(1)]))
    #expect(result == DialogResult(index: 0, title: "Cancel", textFieldValues: ["x"], isDismissed: true))
  }

  @Test func missingTextFieldValuesAreReportedAsEmptyStrings() async throws {
    let alert = AlertDialog(title: "T")
    alert.addTextField()
    alert.addTextField()
    alert.addButton("OK")
    let result = try await alert.present(on: FixedPresenter(answer: .button(0, textFieldValues: ["a"])))
    #expect(result.textFieldValues == ["a", ""])
  }

  // MARK: Lifetime

  @Test func everyClosureIsReleasedAfterTheAnswerWhileTheDialogLives() async throws {
    weak var chosen: Tracked?
    weak var other: Tracked?
    weak var handler: Tracked?
    weak var rule: Tracked?
    let alert: AlertDialog
    do {
      let chosenCapture = Tracked("chosen")
      let otherCapture = Tracked("other")
      let handlerCapture = Tracked("handler")
      let ruleCapture = Tracked("rule")
      chosen = chosenCapture
      other = otherCapture
      handler = handlerCapture
      rule = ruleCapture
      alert = AlertDialog(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") { _ in _ = handlerCapture }
      alert.addTextField()
      alert.addButton("Chosen") { _ in _ = chosenCapture }
      alert.addButton("Other") { _ in _ = otherCapture }
      alert.enableButtons { _ in
        _ = ruleCapture; return true
      }
    }
    #expect(chosen != nil && other != nil && handler != nil && rule != nil)
    _ = try await alert.present(on: ScriptedPresenter([.choose(2)]))
    #expect(chosen == nil)
    #expect(other == nil)
    #expect(handler == nil)
    #expect(rule == nil)
    #expect(alert.buttons.count == 4)  // the descriptions stay; only the closures went
  }

  @Test func actionsNotChosenAreReleasedOutsideTheLockSoTheirCapturesMayUseTheDialog() async {
    let alert = AlertDialog(title: "T")
    do {
      let capture = CallsOnDeinit { _ = alert.buttons }
      alert.addButton("Chosen") { _ in }
      alert.addButton("Other") { _ in _ = capture }
    }
    let answered = Expectation()
    Task(executorPreference: DispatchTaskExecutor()) {  // a deadlock blocks a Dispatch worker, not the pool
      _ = try? await alert.present(on: ScriptedPresenter([.choose(0)]))
      answered.fulfill()
    }
    #expect(await answered.wait(timeout: crossThreadDeadline))
  }

  @Test func aReplacedRuleIsReleasedOutsideTheLockSoItsCapturesMayUseTheDialog() async {
    let alert = AlertDialog(title: "T")
    alert.addTextField()
    let replaced = Expectation()
    onOwnThread {  // not a pool thread: a deadlock here would hold it for good
      do {
        let capture = CallsOnDeinit { _ = alert.buttons }
        alert.enableButtons { _ in
          _ = capture; return true
        }
      }
      alert.enableButtons { _ in true }
      replaced.fulfill()
    }
    #expect(await replaced.wait(timeout: crossThreadDeadline))
  }

  @Test func everyClosureIsReleasedAfterADismissal() async throws {
    weak var cancel: Tracked?
    weak var handler: Tracked?
    let sheet: ActionSheetDialog
    do {
      let cancelCapture = Tracked()
      let handlerCapture = Tracked()
      cancel = cancelCapture
      handler = handlerCapture
      sheet = ActionSheetDialog(title: "T", cancelButtonTitle: nil, destructiveButtonTitle: "Delete") { _ in
        _ = handlerCapture
      }
      sheet.addButton("Cancel", role: .cancel) { _ in _ = cancelCapture }
    }
    let result = try await sheet.present(on: ScriptedPresenter([]))
    #expect(result.index == 1)
    #expect(cancel == nil)
    #expect(handler == nil)
  }

  @Test func scriptedPresenterRecordsWhatItShowedWithoutClosures() async throws {
    let sheet = ActionSheetDialog(title: "Photo", message: "Choose")
    sheet.addButton("Share")
    sheet.addButton("Cancel", role: .cancel)
    let presenter = ScriptedPresenter([.chooseTitled("Nope"), .choose(7), .chooseTitled("Share"), .dismiss])
    let result = try await sheet.present(on: presenter)
    #expect(result.title == "Share")
    #expect(presenter.rejectedSteps == [.chooseTitled("Nope"), .choose(7)])
    #expect(presenter.remainingSteps == [.dismiss])
    let shown = try #require(presenter.presentedRequests.first)
    #expect(presenter.presentedRequests.count == 1)
    #expect(shown.style == .actionSheet)
    #expect(shown.title == "Photo")
    #expect(shown.message == "Choose")
    #expect(
      shown.buttons == [DialogButton(title: "Share", role: .default), DialogButton(title: "Cancel", role: .cancel)])
    #expect(shown.textFields.isEmpty)
  }

  // MARK: Programmer errors

  @Test(.exitTest) func aSecondCancelButtonStopsWithAMessageNamingRole() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let alert = AlertDialog(title: "T")
      alert.addButton("Cancel", role: .cancel)
      alert.addButton("Close", role: .cancel)
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("argument `role` is .cancel"))
  }

  @Test(.exitTest) func addingAButtonAfterPresentingStopsWithAMessage() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let alert = AlertDialog(title: "T")
      alert.addButton("OK")
      _ = try? await alert.present(on: ScriptedPresenter([.choose(0)]))
      alert.addButton("Late")
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("the dialog was already presented"))
  }

  @Test(.exitTest) func presentingADialogWithoutButtonsStopsWithAMessage() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = try? await AlertDialog(title: "T").present(on: ScriptedPresenter([.choose(0)]))
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("present(on:): the dialog has no buttons"))
  }
}

// MARK: - Isolation, lifecycle, the first-other-button rule, cancellation

/// Whether the caller runs on the main dispatch queue, which services the main actor on Linux:
/// a check that answers instead of trapping, so a test can expect `false`.
func isOnMainQueue() -> Bool {
  DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
  return DispatchQueue.getSpecific(key: mainQueueKey) ?? false
}
let mainQueueKey = DispatchSpecificKey<Bool>()

/// A main-actor screen, as an app's view controller: its methods are main-actor isolated.
@MainActor final class DialogScreen {
  var log: [String] = []
  func note(_ entry: String) {
    MainActor.assertIsolated()
    log.append(entry)
  }
}

/// A dialog built off every actor, with unannotated closures that record where they ran.
func makeNonisolatedAlert(_ onMain: Recorder<Bool>) -> AlertDialog {
  let alert = AlertDialog(title: "T")
  alert.addButton("OK") { _ in onMain.append(isOnMainQueue()) }
  alert.setHandler { _ in onMain.append(isOnMainQueue()) }
  alert.onWillPresent { onMain.append(isOnMainQueue()) }
  alert.onDidDismiss { _ in onMain.append(isOnMainQueue()) }
  return alert
}

/// An actor that presents a dialog whose closures use its state without `await`.
actor DialogWorker {
  var answers: [Int] = []
  func ask() async throws -> [Int] {
    let sheet = ActionSheetDialog(
      title: "T", cancelButtonTitle: "Cancel", destructiveButtonTitle: nil, otherButtonTitles: "A"
    ) { index in
      self.assertIsolated()
      self.answers.append(index)
    }
    sheet.onDidDismiss { index in self.answers.append(index + 100) }
    try await sheet.present(on: ScriptedPresenter([.choose(0)]))
    return answers
  }
}

/// Records the lifecycle of a dialog in order.
func recordLifecycle(of alert: AlertDialog, into log: Recorder<String>) {
  alert.onWillPresent { log.append("willPresent") }
  alert.onDidPresent { log.append("didPresent") }
  alert.onWillDismiss { index in log.append("willDismiss \(index)") }
  alert.onDidDismiss { index in log.append("didDismiss \(index)") }
  alert.setHandler { result in log.append("handler \(result.index ?? -1)") }
}

@MainActor @Suite struct DialogMainActorTests {
  @Test func aDialogPresentedFromTheMainActorRunsEveryClosureOnTheMainActor() async throws {
    let screen = DialogScreen()
    let alert = AlertDialog(title: "Delete?")
    alert.addButton("Cancel", role: .cancel)
    alert.addButton("Delete", role: .destructive) { [weak screen] _ in
      MainActor.assumeIsolated { screen?.note("action") }
    }
    alert.setHandler { _ in MainActor.assumeIsolated { screen.note("handler") } }
    alert.onWillPresent { MainActor.assumeIsolated { screen.note("willPresent") } }
    alert.onDidPresent { MainActor.assumeIsolated { screen.note("didPresent") } }
    alert.onWillDismiss { index in MainActor.assumeIsolated { screen.note("willDismiss \(index)") } }
    alert.onDidDismiss { index in MainActor.assumeIsolated { screen.note("didDismiss \(index)") } }
    try await alert.present(on: ScriptedPresenter([.chooseTitled("Delete")]))
    #expect(screen.log == ["willPresent", "didPresent", "action", "handler", "willDismiss 1", "didDismiss 1"])
  }

  @Test func mainActorClosuresCallMainActorMethodsWithoutAHop() async throws {
    let screen = DialogScreen()
    // Each closure calls a main-actor method directly: this compiles only if the closure is
    // isolated to the main actor, and `note` asserts that it runs there.
    let sheet = ActionSheetDialog(title: "Photo", cancelButtonTitle: "Cancel", destructiveButtonTitle: "Delete") {
      index in screen.note("classic \(index)")
    }
    sheet.addButton("Share") { _ in screen.note("share") }
    sheet.onWillPresent { screen.note("willPresent") }
    sheet.onDidPresent { screen.note("didPresent") }
    sheet.onWillDismiss { screen.note("willDismiss \($0)") }
    sheet.onDidDismiss { screen.note("didDismiss \($0)") }
    let result = try await sheet.present(on: ScriptedPresenter([.chooseTitled("Share")]))
    #expect(result.index == 2)
    #expect(screen.log == ["willPresent", "didPresent", "share", "classic 2", "willDismiss 2", "didDismiss 2"])
  }

  @Test func explicitlyMainActorClosuresAreAcceptedAsWritten() async throws {
    let screen = DialogScreen()
    let alert = AlertDialog(title: "Offline")
    let action: @MainActor @Sendable (DialogResult) -> Void = { _ in screen.note("stored") }
    alert.addButton("OK", action: action)
    alert.setHandler { @MainActor result in screen.note("handler \(result.index ?? -1)") }
    try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(screen.log == ["stored", "handler 0"])
  }

  @Test func mainActorClosuresRunOnTheMainActorAlsoWhenTheDialogIsPresentedFromElsewhere() async throws {
    let screen = DialogScreen()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in screen.note("action") }
    alert.onDidDismiss { _ in screen.note("didDismiss") }
    _ = try await Task.detached { try await alert.present(on: ScriptedPresenter([.choose(0)])) }.value
    #expect(screen.log == ["action", "didDismiss"])
  }

  @Test func closuresWrittenOffTheMainActorAreNotMovedToItWhenPresentedFromIt() async throws {
    #expect(isOnMainQueue())  // the check answers `true` here, so its `false` below means something
    let onMain = Recorder<Bool>()
    try await makeNonisolatedAlert(onMain).present(on: ScriptedPresenter([.choose(0)]))
    #expect(onMain.values == [false, false, false, false])
  }
}

@Suite struct DialogIsolationTests {
  @Test func unannotatedClosuresPresentedOffTheMainActorStayOffIt() async throws {
    let onMain = Recorder<Bool>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in onMain.append(isOnMainQueue()) }
    alert.onDidPresent { onMain.append(isOnMainQueue()) }
    alert.onWillDismiss { _ in onMain.append(isOnMainQueue()) }
    try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(onMain.values == [false, false, false])
  }

  @Test func aDialogPresentedFromAnActorAnswersOnThatActor() async throws {
    #expect(try await DialogWorker().ask() == [0, 100])
  }

  @Test func presentResultMayBeDiscarded() async throws {
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    try await alert.present(on: ScriptedPresenter([.choose(0)]))  // no `_ =`: @discardableResult
    let sheet = ActionSheetDialog(title: "T")
    sheet.addButton("OK")
    try await sheet.present(on: ScriptedPresenter([.choose(0)]))
  }
}

@Suite struct DialogLifecycleTests {
  @Test func lifecycleClosuresRunOnceEachInOrderAroundTheChosenButton() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("Cancel", role: .cancel) { _ in log.append("cancel action") }
    alert.addButton("OK") { _ in log.append("ok action") }
    recordLifecycle(of: alert, into: log)
    try await alert.present(on: ScriptedPresenter([.choose(1)]))
    #expect(log.values == ["willPresent", "didPresent", "ok action", "handler 1", "willDismiss 1", "didDismiss 1"])
  }

  @Test func aDismissalRunsTheLifecycleWithTheCancelIndex() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    alert.addButton("Cancel", role: .cancel) { _ in log.append("cancel action") }
    recordLifecycle(of: alert, into: log)
    let result = try await alert.present(on: ScriptedPresenter([.dismiss]))
    #expect(result.isDismissed)
    #expect(log.values == ["willPresent", "didPresent", "cancel action", "handler 1", "willDismiss 1", "didDismiss 1"])
  }

  @Test func aDismissalWithoutCancelButtonReportsMinusOne() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in log.append("ok action") }
    recordLifecycle(of: alert, into: log)
    try await alert.present(on: ScriptedPresenter([]))
    #expect(log.values == ["willPresent", "didPresent", "handler -1", "willDismiss -1", "didDismiss -1"])
  }

  @Test func didPresentRunsWhileTheDialogIsShownAndCancellingTheTaskDismissesItOnce() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in log.append("ok action") }
    alert.addButton("Cancel", role: .cancel) { _ in log.append("cancel action") }
    recordLifecycle(of: alert, into: log)
    let (shown, shownContinuation) = AsyncStream.makeStream(of: Void.self)
    alert.onDidPresent {
      log.append("didPresent")
      shownContinuation.yield()
    }
    let presenter = ScriptedPresenter([.waitUntilCancelled, .choose(0)])
    let task = Task { try await alert.present(on: presenter) }
    for await _ in shown { break }  // the presenter still shows the dialog: nothing answered yet
    #expect(log.values == ["willPresent", "didPresent"])
    task.cancel()
    task.cancel()
    let result = try await task.value
    #expect(result == DialogResult(index: 1, title: "Cancel", textFieldValues: [], isDismissed: true))
    #expect(log.values == ["willPresent", "didPresent", "cancel action", "handler 1", "willDismiss 1", "didDismiss 1"])
    #expect(presenter.remainingSteps == [.choose(0)])
  }

  @Test func aTaskCancelledBeforePresentingIsDismissedWithTheWholeLifecycle() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in log.append("ok action") }
    recordLifecycle(of: alert, into: log)
    let presenter = ScriptedPresenter([.choose(0)])
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await alert.present(on: presenter)
    }
    let result = try await task.value
    #expect(result.isDismissed && result.index == nil)
    #expect(log.values == ["willPresent", "didPresent", "handler -1", "willDismiss -1", "didDismiss -1"])
    #expect(presenter.remainingSteps == [.choose(0)])
  }

  @Test func didPresentRunsBeforeTheDismissalClosuresWhenThePresenterNeverReportsIt() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    recordLifecycle(of: alert, into: log)
    try await alert.present(on: FixedPresenter(answer: .button(0, textFieldValues: [])))
    #expect(log.values == ["willPresent", "didPresent", "handler 0", "willDismiss 0", "didDismiss 0"])
  }

  @Test func reportingPresentedMoreThanOnceRunsDidPresentOnce() async throws {
    struct Stuttering: DialogPresenter {
      func present(_ request: DialogRequest) async -> DialogAnswer {
        request.reportPresented()
        request.reportPresented()
        return .button(0, textFieldValues: [])
      }
    }
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    recordLifecycle(of: alert, into: log)
    try await alert.present(on: Stuttering())
    #expect(log.values.filter { $0 == "didPresent" }.count == 1)
  }

  @Test func lifecycleClosuresAndTheirCapturesAreReleasedAfterTheAnswer() async throws {
    weak var captured: Tracked?
    let alert = AlertDialog(title: "T")
    do {
      let tracked = Tracked()
      captured = tracked
      alert.addButton("OK")
      alert.onWillPresent { _ = tracked }
      alert.onDidPresent { _ = tracked }
      alert.onWillDismiss { _ in _ = tracked }
      alert.onDidDismiss { _ in _ = tracked }
      alert.setHandler { _ in _ = tracked }
    }
    #expect(captured != nil)
    try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(captured == nil)
  }

  @Test func aSecondPresentationRunsNoLifecycleClosure() async throws {
    let log = Recorder<String>()
    let alert = AlertDialog(title: "T")
    alert.addButton("OK")
    recordLifecycle(of: alert, into: log)
    try await alert.present(on: ScriptedPresenter([.choose(0)]))
    await #expect(throws: DialogError.alreadyPresented) { try await alert.present(on: ScriptedPresenter([])) }
    #expect(log.values.count == 5)
  }

  @Test(.exitTest) func settingALifecycleClosureAfterPresentingStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let alert = AlertDialog(title: "T")
      alert.addButton("OK")
      _ = try? await alert.present(on: ScriptedPresenter([.choose(0)]))
      alert.onDidDismiss { _ in }
    }
  }
}

@Suite struct DialogEnablingRuleTests {
  func request(for alert: AlertDialog) async throws -> DialogRequest {
    let captured = Slot<DialogRequest>()
    struct Capturing: DialogPresenter {
      let slot: Slot<DialogRequest>
      func present(_ request: DialogRequest) async -> DialogAnswer {
        slot.value = request
        return .dismissed(textFieldValues: [])
      }
    }
    try await alert.present(on: Capturing(slot: captured))
    return try #require(captured.value)
  }

  func makeAlert() -> AlertDialog {
    let alert = AlertDialog(title: "T")
    alert.addTextField(placeholder: "Address")
    alert.addButton("Erase", role: .destructive)
    alert.addButton("Cancel", role: .cancel)
    alert.addButton("Send")
    alert.addButton("Copy")
    return alert
  }

  @Test func theFirstOtherButtonRuleGovernsTheFirstDefaultButtonOnly() async throws {
    let alert = makeAlert()
    alert.enableFirstOtherButton { values in values[0].contains("@") }
    let request = try await request(for: alert)
    #expect(request.validatedButtons == .firstOther)
    #expect(request.firstOtherButtonIndex == 2)
    #expect((0..<4).map { request.isButtonEnabled(at: $0, textFieldValues: [""]) } == [true, true, false, true])
    #expect((0..<4).map { request.isButtonEnabled(at: $0, textFieldValues: ["a@b"]) } == [true, true, true, true])
  }

  @Test func theEveryButtonRuleDisablesEveryButtonButCancelDestructiveIncluded() async throws {
    let alert = makeAlert()
    alert.enableButtons { values in !values[0].isEmpty }
    let request = try await request(for: alert)
    #expect(request.validatedButtons == .allButCancel)
    #expect((0..<4).map { request.isButtonEnabled(at: $0, textFieldValues: [""]) } == [false, true, false, false])
  }

  @Test func theScriptedPresenterRejectsOnlyTheFirstOtherButtonUnderThatRule() async throws {
    let alert = makeAlert()
    alert.enableFirstOtherButton { values in !values[0].isEmpty }
    let presenter = ScriptedPresenter([.chooseTitled("Send"), .chooseTitled("Copy")])
    let result = try await alert.present(on: presenter)
    #expect(result.title == "Copy")
    #expect(presenter.rejectedSteps == [.chooseTitled("Send")])
  }

  @Test func theLastRuleSetWins() async throws {
    let alert = makeAlert()
    alert.enableButtons { _ in false }
    alert.enableFirstOtherButton { _ in false }
    let request = try await request(for: alert)
    #expect(request.isButtonEnabled(at: 0, textFieldValues: [""]))
  }
}
