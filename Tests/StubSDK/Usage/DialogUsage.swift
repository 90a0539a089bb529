// Client code for Scripts/typecheck-uikit.sh: ClosureKit's dialogs shown with UIAlertController.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import UIKit

  @MainActor
  final class DialogUsage: UIViewController {
    let shareItem = UIBarButtonItem(barButtonSystemItem: .action) { _ in }

    func rename() async throws -> String? {
      let alert = AlertDialog(title: "Rename", message: nil)
      alert.addTextField(placeholder: "Name")
      alert.addButton("Cancel", role: .cancel)
      alert.addButton("Rename")
      alert.enableButtons { values in !values[0].isEmpty }
      alert.onDidPresent { self.title = alert.isPresented ? "Renaming" : nil }  // isPresented: true
      let result = try await alert.present(on: AlertControllerPresenter(presentingFrom: self))
      return result.isDismissed ? nil : result.textFieldValues.first
    }

    func share() async throws {
      let sheet = ActionSheetDialog(
        title: "Share",
        cancelButtonTitle: "Cancel",
        destructiveButtonTitle: nil,
        otherButtonTitles: "Mail", "Messages"
      ) { index in print(index) }
      let presenter = AlertControllerPresenter(presentingFrom: self, anchor: .barButtonItem(shareItem))
      presenter.anchor = .view(view, rect: nil)
      _ = try await sheet.present(on: presenter)
      precondition(!sheet.isPresented)  // false once present(on:) has returned
    }
  }
#endif
