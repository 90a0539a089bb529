// Client code for Scripts/typecheck-uikit.sh and Scripts/typecheck-apple-sdk.sh: MessageUI's mail
// and message composers, with a completion handler and awaited.
#if canImport(UIKit) && canImport(MessageUI)
  import ClosureKitUIKit
  import Foundation
  import MessageUI
  import UIKit

  @MainActor
  final class ComposerUsage: UIViewController {
    let status = UILabel()
    var pending: Task<Void, Never>?

    func sendFeedback() {
      guard MFMailComposeViewController.canSendMail() else { return }
      let mail = MFMailComposeViewController()
      mail.setToRecipients(["support@example.com"])
      mail.setSubject("Feedback")
      mail.setMessageBody("<p>Hello</p>", isHTML: true)
      mail.present(from: self, animated: false) { [status] result in
        switch result {
        case .success(.sent): status.text = "Sent"
        case .success(.saved): status.text = "Saved as a draft"
        case .success(.cancelled), .success(.failed), .success: status.text = nil
        case .failure(let error): status.text = "\(error)"
        }
      }
    }

    func sendFeedbackAwaiting() async {
      let mail = MFMailComposeViewController()
      do {
        let result: MFMailComposeResult = try await mail.present(from: self)
        status.text = result == .sent ? "Sent" : nil
      } catch is CancellationError {
        status.text = "Closed"
      } catch {
        status.text = "\(error)"
      }
    }

    func textInvite() {
      guard MFMessageComposeViewController.canSendText() else { return }
      let message = MFMessageComposeViewController()
      message.recipients = ["+15555550100"]
      message.body = "Join me"
      message.present(from: self) { [status] result in
        let finished: MessageComposeResult = result
        status.text = finished == .sent ? "Invited" : nil
      }
    }

    /// Starts an awaited message; `cancelInvite()` dismisses the composer.
    func textInviteAwaiting() {
      let message = MFMessageComposeViewController()
      message.body = "Join me"
      pending = Task {
        let result = try? await message.present(from: self, animated: true)
        status.text = result == .sent ? "Invited" : nil
      }
    }

    func cancelInvite() {
      pending?.cancel()
    }
  }
#endif
