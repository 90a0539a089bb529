import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Synchronization
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The terminal presenter through pipes (line mode).
/// The terminal presenter's tests, one at a time: a process shows one terminal dialog at a time,
/// so pipe and pseudo-terminal tests running side by side would wait for each other's dialogs.
@Suite(.serialized) struct TerminalPresenterTests {}

extension TerminalPresenterTests {
  @Suite struct TerminalPresenterPipeTests {
    @Test func pipeAnswerByNumberChoosesThatButtonAndRunsItsClosure() async throws {
      let (ran, result, output) = try await answerStandardAlertFromPipe("2\n")
      #expect(result.index == 1)
      #expect(ran.values == ["OK"])
      #expect(output.contains("Save changes?\nYour edits are not saved.\n  1) Cancel\n  2) OK\n  3) Delete\n"))
      #expect(output.contains("Choose 1-3 (number or title): 2\n"))
    }

    @Test func pipeDialogIsPresentedFromWillPresentUntilDidDismiss() async throws {
      let ran = Log()
      let alert = makeAlert(ran)
      alert.onWillPresent { ran.append("willPresent \(alert.isPresented)") }
      alert.onDidPresent { ran.append("didPresent \(alert.isPresented)") }
      alert.onDidDismiss { _ in ran.append("didDismiss \(alert.isPresented)") }
      #expect(!alert.isPresented)
      let (result, _) = try await presentFromPipe({ try await alert.present(on: $0) }, input: "2\n")
      #expect(result.index == 1)
      #expect(!alert.isPresented)
      #expect(ran.values == ["willPresent true", "didPresent true", "OK", "didDismiss true"])
    }

    @Test func pipeAnswerByTitleIgnoresCaseAndSurroundingSpaces() async throws {
      let (ran, result, _) = try await answerStandardAlertFromPipe("  delete \r\n")
      #expect(result.index == 2)
      #expect(ran.values == ["Delete"])
    }

    @Test func pipeEndOfInputChoosesTheCancelButton() async throws {
      let (ran, result, output) = try await answerStandardAlertFromPipe("")
      #expect(result == DialogResult(index: 0, title: "Cancel", textFieldValues: [], isDismissed: true))
      #expect(ran.values == ["Cancel"])
      #expect(output.hasSuffix("(end of input)\n"))
    }

    @Test func pipeEndOfInputWithoutCancelButtonIsDismissed() async throws {
      let indices = Log()
      let sheet = ActionSheetDialog(
        title: "T", cancelButtonTitle: nil, destructiveButtonTitle: nil, otherButtonTitles: "A"
      ) {
        index in indices.append("\(index)")
      }
      let (result, _) = try await presentFromPipe({ try await sheet.present(on: $0) }, input: "")
      #expect(result.index == nil)
      #expect(result.isDismissed)
      #expect(indices.values == ["-1"])
    }

    @Test func pipeLastLineWithoutNewlineIsAnAnswer() async throws {
      let (_, result, _) = try await answerStandardAlertFromPipe("3")
      #expect(result.index == 2)
    }

    @Test func pipeInvalidAnswerRepromptsWithAMessage() async throws {
      let ran = Log()
      let alert = makeAlert(ran)
      let (result, output) = try await presentFromPipe(
        { try await alert.present(on: $0) },
        input: "7\nmaybe\n\n1\n"
      )
      #expect(result.index == 0)
      #expect(result.isDismissed == false)
      #expect(output.contains("Invalid answer \"7\": type a number from 1 to 3 or a button title.\n"))
      #expect(output.contains("Invalid answer \"maybe\""))
      #expect(output.split(separator: "Choose 1-3", omittingEmptySubsequences: false).count - 1 == 4)
      #expect(ran.values == ["Cancel"])
    }

    @Test func pipeReadsTextFieldsOneLineEachAndNeverEchoesSecureText() async throws {
      let seen = Log()
      let login = makeSignInAlert { result in seen.set(result.textFieldValues) }
      let (result, output) = try await presentFromPipe(
        { try await login.present(on: $0) },
        input: "bob\nhunter2\nSign in\n"
      )
      #expect(result.index == 1)
      #expect(result.textFieldValues == ["bob", "hunter2"])
      #expect(seen.values == ["bob", "hunter2"])
      #expect(output.contains("Name: bob\nPassword: \n"))
      #expect(!output.contains("hunter2"))
    }

    @Test func pipeChoosingADisabledButtonAsksForTheTextAgain() async throws {
      let login = AlertDialog(title: "Sign in")
      login.addTextField(placeholder: "Name")
      login.addButton("Cancel", role: .cancel)
      login.addButton("Sign in")
      login.enableButtons { values in !values[0].isEmpty }
      let (result, output) = try await presentFromPipe(
        { try await login.present(on: $0) },
        input: "\n2\nbob\n2\n"
      )
      #expect(result.index == 1)
      #expect(result.textFieldValues == ["bob"])
      #expect(output.contains("\"Sign in\" is not available with this text; enter it again.\nName: bob\n"))
    }

    @Test func pipeConsumesOnlyItsOwnAnswerSoTheNextDialogReadsTheRest() async throws {
      let inputPipe = TestPipe()
      let outputPipe = TestPipe()
      inputPipe.send("1\n3\n")
      inputPipe.closeWrite()
      let presenter = TerminalPresenter(input: inputPipe.readEnd, output: outputPipe.writeEnd, environment: [:])
      let ran = Log()
      let first = try await makeAlert(ran).present(on: presenter)
      let second = try await makeAlert(ran).present(on: presenter)
      let third = try await makeAlert(ran).present(on: presenter)
      outputPipe.closeWrite()
      _ = outputPipe.readAll()
      #expect([first.index, second.index, third.index] == [0, 2, 0])
      #expect([first.isDismissed, second.isDismissed, third.isDismissed] == [false, false, true])
      #expect(ran.values == ["Cancel", "Delete", "Cancel"])
    }

    @Test func pipeModeWritesNoEscapeSequences() async throws {
      let (_, _, output) = try await answerStandardAlertFromPipe("x\n2\n")
      #expect(!output.contains("\u{1b}"))
    }

    @Test func closedOutputDoesNotCrashAndTheAnswerIsStillRead() async throws {
      let inputPipe = TestPipe()
      let outputPipe = TestPipe()
      outputPipe.closeRead()  // writing now fails with EPIPE (SIGPIPE is blocked on the dialog thread)
      inputPipe.send("2\n")
      inputPipe.closeWrite()
      let ran = Log()
      let presenter = TerminalPresenter(input: inputPipe.readEnd, output: outputPipe.writeEnd, environment: [:])
      let result = try await makeAlert(ran).present(on: presenter)
      #expect(result.index == 1)
      inputPipe.closeRead()
      outputPipe.closeWrite()
    }

    @Test func invalidInputDescriptorIsTheEndOfInput() async throws {
      let outputPipe = TestPipe()
      let ran = Log()
      let result = try await makeAlert(ran).present(
        on: TerminalPresenter(input: -1, output: outputPipe.writeEnd, environment: [:])
      )
      #expect(result.isDismissed)
      #expect(result.index == 0)
      outputPipe.closeWrite()
      outputPipe.closeRead()
    }

    @Test func cancellingThePresentingTaskDismissesTheDialog() async throws {
      let inputPipe = TestPipe()  // nothing is ever written: the dialog would wait forever
      let terminal = PseudoTerminal()  // used only as an output the test can wait on
      let ran = Log()
      let alert = makeAlert(ran)
      let presenter = TerminalPresenter(input: inputPipe.readEnd, output: terminal.secondary, environment: [:])
      let task = Task { try await alert.present(on: presenter) }
      #expect(await terminal.read(until: "Choose 1-3"))
      task.cancel()
      let result = try await task.value
      #expect(result == DialogResult(index: 0, title: "Cancel", textFieldValues: [], isDismissed: true))
      #expect(ran.values == ["Cancel"])
      inputPipe.closeWrite()
      inputPipe.closeRead()
    }

    @Test func closuresAreReleasedAfterATerminalAnswer() async throws {
      let alert = AlertDialog(title: "T")
      weak let captured: Tracked? = addClosuresCapturingAnObject(to: alert)
      #expect(captured != nil)
      _ = try await presentFromPipe({ try await alert.present(on: $0) }, input: "1\n")
      #expect(captured == nil)
    }
  }
}

/// Gives `alert` a button closure and a validation closure that both capture a new object, and
/// returns that object (for a weak reference: only the closures keep it alive).
private func addClosuresCapturingAnObject(to alert: AlertDialog) -> Tracked {
  let tracked = Tracked()
  alert.addButton("OK") { _ in _ = tracked }
  alert.enableButtons { _ in
    _ = tracked
    return true
  }
  return tracked
}

/// The terminal presenter in a real pseudo-terminal opened by the test (raw mode).
extension TerminalPresenterTests {
  @Suite struct TerminalPresenterPseudoTerminalTests {
    /// Presents `makeAlert` on a fresh pseudo-terminal, waits for the menu, types `keys`.
    func run(
      keys: String,
      environment: [String: String] = ["TERM": "xterm-256color"]
    ) async throws -> (DialogResult, [String], PseudoTerminal, before: [UInt], after: [UInt]) {
      let terminal = PseudoTerminal()
      let before = essentials(terminal.settings())
      let ran = Log()
      let alert = makeAlert(ran)
      let presenter = terminal.presenter(environment: environment)
      let task = Task { try await alert.present(on: presenter) }
      #expect(await terminal.read(until: "Esc to cancel"))
      #expect(essentials(terminal.settings()) != before, "raw mode is on while the menu is shown")
      terminal.type(keys)
      let result = try await task.value
      _ = await terminal.read(until: "\u{1b}[?25h")
      return (result, ran.values, terminal, before, essentials(terminal.settings()))
    }

    @Test func downArrowAndEnterChooseTheNextButtonAndRestoreTheSettings() async throws {
      let (result, ran, terminal, before, after) = try await run(keys: "\u{1b}[B\r")
      #expect(result.index == 2)
      #expect(ran == ["Delete"])
      #expect(after == before)
      #expect(terminal.transcript.contains("Chosen: Delete"))
    }

    @Test func enterChoosesTheFirstDefaultButtonAndUpArrowWrapsAround() async throws {
      let (first, _, _, _, _) = try await run(keys: "\r")
      #expect(first.index == 1)
      let (wrapped, _, _, before, after) = try await run(keys: "\u{1b}[A\u{1b}[A\u{1b}OA\r")
      #expect(wrapped.index == 1)
      #expect(after == before)
    }

    @Test func aButtonNumberChoosesItAtOnce() async throws {
      let (result, ran, _, before, after) = try await run(keys: "1")
      #expect(result.index == 0)
      #expect(result.isDismissed == false)
      #expect(ran == ["Cancel"])
      #expect(after == before)
    }

    @Test func ctrlCDismissesChoosingCancelAndRestoresTheSettings() async throws {
      let (result, ran, terminal, before, after) = try await run(keys: "\u{3}")
      #expect(result == DialogResult(index: 0, title: "Cancel", textFieldValues: [], isDismissed: true))
      #expect(ran == ["Cancel"])
      #expect(after == before)
      #expect(terminal.transcript.contains("Dismissed (interrupted)"))
    }

    @Test func ctrlDIsTheEndOfInput() async throws {
      let (result, _, terminal, before, after) = try await run(keys: "\u{4}")
      #expect(result.isDismissed)
      #expect(after == before)
      #expect(terminal.transcript.contains("Dismissed (end of input)"))
    }

    @Test func escapeAloneDismisses() async throws {
      let (result, _, _, before, after) = try await run(keys: "\u{1b}")
      #expect(result.isDismissed)
      #expect(after == before)
    }

    @Test func hangingUpTheTerminalDismissesWithoutCrashing() async throws {
      let terminal = PseudoTerminal()
      let ran = Log()
      let alert = makeAlert(ran)
      let presenter = terminal.presenter()
      let task = Task { try await alert.present(on: presenter) }
      #expect(await terminal.read(until: "Esc to cancel"))
      terminal.hangUp()
      let result = try await task.value
      #expect(result.isDismissed)
      #expect(ran.values == ["Cancel"])
    }

    @Test func rawModeUsesColourUnlessNoColorIsSet() async throws {
      let (_, _, coloured, _, _) = try await run(keys: "2")
      #expect(coloured.transcript.contains("\u{1b}[7m"))
      let (_, _, plain, _, _) = try await run(keys: "2", environment: ["TERM": "xterm", "NO_COLOR": "1"])
      #expect(!plain.transcript.contains("m\u{1b}[0m"))
      #expect(!plain.transcript.contains("\u{1b}[7m"))
      #expect(!plain.transcript.contains("\u{1b}[1m"))
      #expect(plain.transcript.contains("> 2. OK"))
    }

    @Test func rawModeTextFieldsEditWithBackspaceAndHideSecureText() async throws {
      let terminal = PseudoTerminal()
      let login = makeSignInAlert()
      login.enableButtons { values in !values[0].isEmpty }
      let presenter = terminal.presenter()
      let task = Task { try await login.present(on: presenter) }
      #expect(await terminal.read(until: "Name: "))
      terminal.type("\r")  // empty name: Sign in is disabled
      #expect(await terminal.read(until: "Password: "))
      terminal.type("x\r")
      #expect(await terminal.read(until: "Esc to cancel"))
      #expect(terminal.transcript.contains("2. Sign in (unavailable)"))
      terminal.type("2")
      #expect(await terminal.read(until: "enter it again"))
      #expect(await terminal.read(until: "Name: "))
      terminal.type("bobx\u{7f}\r")
      #expect(await terminal.read(until: "Password: "))
      terminal.type("hunter2\r")
      #expect(await terminal.read(until: "Esc to cancel"))
      terminal.type("2")
      let result = try await task.value
      #expect(result.index == 1)
      #expect(result.textFieldValues == ["bob", "hunter2"])
      #expect(!terminal.transcript.contains("hunter2"))
    }

    @Test func menuLinesAreCutToTheTerminalWidthSoRedrawingNeverWraps() async throws {
      let terminal = PseudoTerminal(columns: 20)
      let sheet = ActionSheetDialog(title: "T")
      sheet.addButton("A button with a very long title")
      sheet.addButton("Short")
      let presenter = terminal.presenter(environment: ["TERM": "xterm", "NO_COLOR": "1"])
      let task = Task { try await sheet.present(on: presenter) }
      #expect(await terminal.read(until: "Up/Down to move,..."))
      terminal.type("\u{1b}[B\r")
      let result = try await task.value
      #expect(result.index == 1)
      #expect(await terminal.read(until: "\u{1b}[?25h"))
      #expect(terminal.transcript.contains("> 1. A button wi..."))
      #expect(terminal.transcript.contains("  1. A button wi..."))
    }

    @Test func dumbTerminalUsesLinesAndTurnsEchoOffForSecureText() async throws {
      let terminal = PseudoTerminal()
      let before = essentials(terminal.settings())
      let login = makeSignInAlert()
      let presenter = terminal.presenter(environment: ["TERM": "dumb"])
      let task = Task { try await login.present(on: presenter) }
      #expect(await terminal.read(until: "Name: "))
      terminal.type("bob\n")
      #expect(await terminal.read(until: "Password: "))
      terminal.type("hunter2\n")
      #expect(await terminal.read(until: "(number or title): "))
      terminal.type("2\n")
      let result = try await task.value
      #expect(result.index == 1)
      #expect(result.textFieldValues == ["bob", "hunter2"])
      #expect(await terminal.read(until: "2"))
      #expect(terminal.transcript.contains("bob"))  // the terminal itself echoed the name
      #expect(!terminal.transcript.contains("hunter2"))
      #expect(!terminal.transcript.contains("\u{1b}"))
      #expect(essentials(terminal.settings()) == before)
    }

    @Test func anInterruptSignalDuringTheDialogRestoresTheSettingsAtOnce() async throws {
      // The test's own SIGINT handler stands in for the program's: the dialog's handler restores
      // the terminal, then re-raises the signal under this previous action.
      signal(SIGINT) { _ in interruptsSeen.add(1, ordering: .sequentiallyConsistent) }
      defer { signal(SIGINT, SIG_DFL) }
      let terminal = PseudoTerminal()
      let before = essentials(terminal.settings())
      let ran = Log()
      let alert = makeAlert(ran)
      let presenter = terminal.presenter()
      let task = Task { try await alert.present(on: presenter) }
      #expect(await terminal.read(until: "Esc to cancel"))
      #expect(essentials(terminal.settings()) != before)
      let seenBefore = interruptsSeen.load(ordering: .sequentiallyConsistent)
      kill(getpid(), SIGINT)  // process-directed: Dispatch's worker threads block SIGINT, so raise() would not do
      #expect(await terminal.read(until: "\u{1b}[?25h"), "the signal handler shows the cursor again")
      #expect(essentials(terminal.settings()) == before, "restored by the signal handler")
      let deadline = ContinuousClock.now + .seconds(30)
      while interruptsSeen.load(ordering: .sequentiallyConsistent) == seenBefore && ContinuousClock.now < deadline {
        sched_yield()
      }
      #expect(
        interruptsSeen.load(ordering: .sequentiallyConsistent) == seenBefore + 1, "re-raised to the previous action")
      terminal.type("\r")  // the terminal is back in line mode: a newline ends the line
      let result = try await task.value
      #expect(result.index == 1)
      #expect(essentials(terminal.settings()) == before)
    }
  }
}

/// How many SIGINTs the test's own handler saw.
let interruptsSeen = Atomic(0)

/// Records a dialog's lifecycle in order.
func recordLifecycle(of alert: AlertDialog, into log: Log) {
  alert.onWillPresent { log.append("willPresent") }
  alert.onDidPresent { log.append("didPresent") }
  alert.onWillDismiss { index in log.append("willDismiss \(index)") }
  alert.onDidDismiss { index in log.append("didDismiss \(index)") }
}

extension TerminalPresenterTests {
  @Suite struct TerminalPresenterLifecycleTests {
    @Test func lifecycleClosuresRunOnceEachInOrderAroundTheAnswerFromAPipe() async throws {
      let log = Log()
      let alert = makeAlert(log)
      recordLifecycle(of: alert, into: log)
      let (result, _) = try await presentFromPipe({ try await alert.present(on: $0) }, input: "2\n")
      #expect(result.index == 1)
      #expect(log.values == ["willPresent", "didPresent", "OK", "willDismiss 1", "didDismiss 1"])
    }

    @Test func endOfInputRunsTheLifecycleWithTheCancelIndex() async throws {
      let log = Log()
      let alert = makeAlert(log)
      recordLifecycle(of: alert, into: log)
      _ = try await presentFromPipe({ try await alert.present(on: $0) }, input: "")
      #expect(log.values == ["willPresent", "didPresent", "Cancel", "willDismiss 0", "didDismiss 0"])
    }

    @Test func didPresentRunsOnceTheMenuIsShownAndCancellingTheTaskRunsTheCancelPathOnce() async throws {
      let inputPipe = TestPipe()  // nothing is ever written: the dialog would wait forever
      let terminal = PseudoTerminal()  // used only as an output the test can wait on
      let log = Log()
      let alert = makeAlert(log)
      recordLifecycle(of: alert, into: log)
      let (shown, shownContinuation) = AsyncStream.makeStream(of: Void.self)
      alert.onDidPresent {
        log.append("didPresent")
        shownContinuation.yield()
      }
      let presenter = TerminalPresenter(input: inputPipe.readEnd, output: terminal.secondary, environment: [:])
      let task = Task { try await alert.present(on: presenter) }
      for await _ in shown { break }  // while the terminal still waits for an answer
      #expect(log.values == ["willPresent", "didPresent"])
      #expect(await terminal.read(until: "Choose 1-3"))
      task.cancel()
      task.cancel()
      let result = try await task.value
      #expect(result == DialogResult(index: 0, title: "Cancel", textFieldValues: [], isDismissed: true))
      #expect(log.values == ["willPresent", "didPresent", "Cancel", "willDismiss 0", "didDismiss 0"])
      inputPipe.closeWrite()
      inputPipe.closeRead()
    }

    @MainActor @Test func aDialogPresentedFromTheMainActorRunsEveryClosureThereOnTheTerminal() async throws {
      let log = Log()
      let alert = AlertDialog(title: "T")
      alert.addButton("Cancel", role: .cancel) { _ in MainActor.assumeIsolated { log.append("Cancel") } }
      alert.addButton("OK") { _ in MainActor.assumeIsolated { log.append("OK") } }
      alert.setHandler { result in MainActor.assumeIsolated { log.append("handler \(result.index ?? -1)") } }
      alert.onWillPresent { MainActor.assumeIsolated { log.append("willPresent") } }
      alert.onDidPresent { MainActor.assumeIsolated { log.append("didPresent") } }
      alert.onWillDismiss { index in MainActor.assumeIsolated { log.append("willDismiss \(index)") } }
      alert.onDidDismiss { index in MainActor.assumeIsolated { log.append("didDismiss \(index)") } }
      let inputPipe = TestPipe()
      let outputPipe = TestPipe()
      inputPipe.send("2\n")
      inputPipe.closeWrite()
      let presenter = TerminalPresenter(input: inputPipe.readEnd, output: outputPipe.writeEnd, environment: [:])
      let result = try await alert.present(on: presenter)
      outputPipe.closeWrite()
      _ = outputPipe.readAll()
      inputPipe.closeRead()
      outputPipe.closeRead()
      #expect(result.index == 1)
      #expect(log.values == ["willPresent", "didPresent", "OK", "handler 1", "willDismiss 1", "didDismiss 1"])
    }
  }
}
