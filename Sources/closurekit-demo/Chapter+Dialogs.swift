import ClosureKit
import ClosureKitFoundation

/// Something a closure captures, to show that the dialog releases it after the answer.
final class DraftDocument: Sendable {
  let name: String
  init(name: String) { self.name = name }
  deinit { print("  \(name) released: the dialog kept no closure") }
}

extension Chapter {
  static let dialogs = Chapter(
    name: "dialogs",
    summary: "AlertDialog and ActionSheetDialog with a closure per button, on the terminal or from a pipe"
  ) {
    let presenter = TerminalPresenter()
    if Console.standardInputIsTerminal {
      print("Answer with the arrow keys and Enter, or a button's number; Esc or Ctrl-C cancels.\n")
    } else {
      print("Standard input is not a terminal: each answer is one line, a number or a title.\n")
    }

    print("1. An alert built button by button, one closure per button:")
    var document: DraftDocument? = DraftDocument(name: "notes.txt")
    if let document {
      let alert = AlertDialog(title: "Save changes to \(document.name)?", message: "Your edits are not saved yet.")
      alert.addButton("Cancel", role: .cancel) { _ in print("  the closure of \u{201C}Cancel\u{201D} ran") }
      alert.addButton("Save") { _ in print("  the closure of \u{201C}Save\u{201D} ran: saving \(document.name)") }
      alert.addButton("Don't Save", role: .destructive) { _ in
        print("  the closure of \u{201C}Don't Save\u{201D} ran: discarding \(document.name)")
      }
      let result = try await alert.present(on: presenter)
      print("  present(on:) returned index \(result.index.map(String.init) ?? "nil"), title \(result.title ?? "nil")")
    }
    document = nil

    print("\n2. The classic form: one handler receives the index (cancel 0, the others from 1):")
    let classic = AlertDialog(
      title: "Rate this tour",
      cancelButtonTitle: "Not now",
      otherButtonTitles: "Good",
      "Great"
    ) { index in print("  the whole-dialog handler ran with index \(index)") }
    _ = try await classic.present(on: presenter)

    print("\n3. Text fields and a validation closure: Sign in is enabled only with a name:")
    let login = AlertDialog(title: "Sign in")
    let name = login.addTextField(placeholder: "Name")
    let password = login.addTextField(placeholder: "Password", isSecure: true)
    login.enableButtons { values in !values[name].isEmpty }
    login.addButton("Cancel", role: .cancel) { _ in print("  the closure of \u{201C}Cancel\u{201D} ran") }
    login.addButton("Sign in") { result in
      let hidden = String(repeating: "*", count: result.textFieldValues[password].count)
      print("  the closure of \u{201C}Sign in\u{201D} ran for \(result.textFieldValues[name]) (password \(hidden))")
    }
    _ = try await login.present(on: presenter)

    print("\n4. An action sheet in UIActionSheet order (destructive 0, others, cancel last):")
    let sheet = ActionSheetDialog(
      title: "Photo",
      cancelButtonTitle: "Cancel",
      destructiveButtonTitle: "Delete",
      otherButtonTitles: "Share",
      "Print"
    ) { index in print("  the whole-dialog handler ran with index \(index)") }
    let chosen = try await sheet.present(on: presenter)
    if chosen.isDismissed { print("  (no choice was made, so the cancel button was chosen)") }

    print("\n5. Presenting the same dialog twice is an error:")
    do {
      _ = try await sheet.present(on: presenter)
    } catch {
      print("  \(error)")
    }
  }
}
