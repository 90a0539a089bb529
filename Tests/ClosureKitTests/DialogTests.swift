import ClosureKit
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
    let alert = Alert(title: "T")
    #expect(alert.addButton("A") == 0)
    #expect(alert.addButton("B", role: .cancel) == 1)
    #expect(alert.addButton("C", role: .destructive) == 2)
    #expect(alert.buttons.map(\.title) == ["A", "B", "C"])
    #expect(alert.buttons.map(\.role) == [.default, .cancel, .destructive])
    #expect(alert.cancelButtonIndex == 1)
  }

  @Test func classicAlertNumbersCancelZeroAndTheOthersFromOne() async throws {
    let received = Recorder<Int>()
    let alert = Alert(title: "T", message: "M", cancelButtonTitle: "Cancel", otherButtonTitles: "One", "Two") {
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
    let alert = Alert(title: "T", cancelButtonTitle: nil, otherButtonTitles: "One", "Two") { received.append($0) }
    #expect(alert.cancelButtonIndex == nil)
    _ = try await alert.present(on: ScriptedPresenter([.choose(0)]))
    #expect(received.values == [0])
  }

  @Test func classicActionSheetNumbersDestructiveFirstThenOthersThenCancelLast() async throws {
    let received = Recorder<Int>()
    let sheet = ActionSheet(
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
    let alert = Alert(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") {
      calls.append("handler \($0)")
    }
    alert.addButton("More") { result in calls.append("More \(result.index ?? -9)") }
    let result = try await alert.present(on: ScriptedPresenter([.choose(2)]))
    #expect(calls.values == ["More 2", "handler 2"])
    #expect(result == DialogResult(index: 2, title: "More", textFieldValues: [], isDismissed: false))
  }

  @Test func actionsOfButtonsNotChosenNeverRun() async throws {
    let calls = Recorder<String>()
    let sheet = ActionSheet(title: "T")
    for title in ["A", "B", "C"] { sheet.addButton(title) { _ in calls.append(title) } }
    _ = try await sheet.present(on: ScriptedPresenter([.choose(1)]))
    #expect(calls.values == ["B"])
  }

  @Test func presentingTwiceThrowsAlreadyPresentedAndRunsNothingAgain() async throws {
    let calls = Counter()
    let alert = Alert(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") { _ in calls.increment() }
    _ = try await alert.present(on: ScriptedPresenter([.choose(1)]))
    await #expect(throws: DialogError.alreadyPresented) {
      try await alert.present(on: ScriptedPresenter([.choose(1)]))
    }
    #expect(calls.value == 1)
  }

  @Test func concurrentPresentationsOfOneDialogAnswerOnce() async {
    let calls = Counter()
    let alert = Alert(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") { _ in calls.increment() }
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
    let alert = Alert(title: "T")
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
    let alert = Alert(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") {
      calls.append("handler \($0)")
    }
    let sheet = ActionSheet(title: "T")
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
    let alert = Alert(title: "T", cancelButtonTitle: nil, otherButtonTitles: "A", "B") { calls.append($0) }
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
    let login = Alert(title: "Sign in")
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
    let login = Alert(title: "Sign in")
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
    let login = Alert(title: "T")
    login.addTextField()
    login.addButton("Cancel", role: .cancel)
    login.addButton("OK")
    login.enableButtons { _ in false }
    let result = try await login.present(on: ScriptedPresenter([.enterText(["x"]), .choose(1)]))
    #expect(result == DialogResult(index: 0, title: "Cancel", textFieldValues: ["x"], isDismissed: true))
  }

  @Test func missingTextFieldValuesAreReportedAsEmptyStrings() async throws {
    let alert = Alert(title: "T")
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
    let alert: Alert
    do {
      let chosenCapture = Tracked("chosen")
      let otherCapture = Tracked("other")
      let handlerCapture = Tracked("handler")
      let ruleCapture = Tracked("rule")
      chosen = chosenCapture
      other = otherCapture
      handler = handlerCapture
      rule = ruleCapture
      alert = Alert(title: "T", cancelButtonTitle: "Cancel", otherButtonTitles: "OK") { _ in _ = handlerCapture }
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
    let alert = Alert(title: "T")
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
    #expect(await answered.wait(timeout: .seconds(10)))
  }

  @Test func aReplacedRuleIsReleasedOutsideTheLockSoItsCapturesMayUseTheDialog() async {
    let alert = Alert(title: "T")
    alert.addTextField()
    let replaced = Expectation()
    DispatchQueue.global().async {
      do {
        let capture = CallsOnDeinit { _ = alert.buttons }
        alert.enableButtons { _ in
          _ = capture; return true
        }
      }
      alert.enableButtons { _ in true }
      replaced.fulfill()
    }
    #expect(await replaced.wait(timeout: .seconds(10)))
  }

  @Test func everyClosureIsReleasedAfterADismissal() async throws {
    weak var cancel: Tracked?
    weak var handler: Tracked?
    let sheet: ActionSheet
    do {
      let cancelCapture = Tracked()
      let handlerCapture = Tracked()
      cancel = cancelCapture
      handler = handlerCapture
      sheet = ActionSheet(title: "T", cancelButtonTitle: nil, destructiveButtonTitle: "Delete") { _ in
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
    let sheet = ActionSheet(title: "Photo", message: "Choose")
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

  @Test func aSecondCancelButtonStopsWithAMessageNamingRole() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let alert = Alert(title: "T")
      alert.addButton("Cancel", role: .cancel)
      alert.addButton("Close", role: .cancel)
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("argument `role` is .cancel"))
  }

  @Test func addingAButtonAfterPresentingStopsWithAMessage() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let alert = Alert(title: "T")
      alert.addButton("OK")
      _ = try? await alert.present(on: ScriptedPresenter([.choose(0)]))
      alert.addButton("Late")
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("the dialog was already presented"))
  }

  @Test func presentingADialogWithoutButtonsStopsWithAMessage() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = try? await Alert(title: "T").present(on: ScriptedPresenter([.choose(0)]))
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("present(on:): the dialog has no buttons"))
  }
}
