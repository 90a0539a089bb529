#if canImport(UIKit) && canImport(MessageUI)
  import Foundation
  public import MessageUI
  public import UIKit

  extension MFMailComposeViewController {
    /// Presents the mail composer from `viewController` and calls `handler` once the user has
    /// sent, saved or cancelled the mail and the composer is dismissed.
    ///
    /// ```swift
    /// guard MFMailComposeViewController.canSendMail() else { return }
    /// let composer = MFMailComposeViewController()
    /// composer.setToRecipients(["support@example.com"])
    /// composer.setSubject("Feedback")
    /// composer.present(from: self) { result in
    ///   switch result {
    ///   case .success(.sent): label.text = "Thank you!"
    ///   case .success: break
    ///   case .failure(let error): label.text = "Not sent: \(error)"
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - viewController: The controller to present from.
    ///   - animated: Whether presentation and dismissal are animated. Defaults to `true`.
    ///   - handler: Receives how the user finished (`.cancelled`, `.saved`, `.sent`, `.failed`), or
    ///     the error MessageUI reported with a failure.
    ///
    /// > Important: Main actor; `handler` runs on it exactly once, after the composer's dismissal
    /// > completed, so it may present something else. The composer is dismissed exactly once, by
    /// > this call: do not dismiss it yourself. Its `mailComposeDelegate` is this call's until then
    /// > (it keeps itself alive: MessageUI holds it weakly), and a delegate set before is put back
    /// > before `handler` runs; then everything is released. Check `canSendMail()` first: without
    /// > a mail account the composer cannot be shown.
    public func present(
      from viewController: UIViewController,
      animated: Bool = true,
      handler: @escaping @MainActor (Result<MFMailComposeResult, any Error>) -> Void
    ) {
      let previous = mailComposeDelegate
      let delegate = MailComposeDelegate { [weak self, weak previous] outcome in
        self?.mailComposeDelegate = previous
        handler(outcome)
      }
      mailComposeDelegate = delegate
      delegate.session.start(self, delegate: delegate, from: viewController, animated: animated)
    }

    /// Presents the mail composer from `viewController`, waits until the user has sent, saved or
    /// cancelled the mail and the composer is dismissed, and returns how the user finished.
    ///
    /// ```swift
    /// let composer = MFMailComposeViewController()
    /// composer.setMessageBody("Hello", isHTML: false)
    /// if try await composer.present(from: self) == .sent { label.text = "Sent" }
    /// ```
    ///
    /// - Parameters:
    ///   - viewController: The controller to present from.
    ///   - animated: Whether presentation and dismissal are animated. Defaults to `true`.
    /// - Returns: `.cancelled` (the user cancelled), `.saved`, `.sent` or `.failed`.
    /// - Throws: The error MessageUI reported with a failure; `CancellationError` when the calling
    ///   task is cancelled, after the composer's dismissal completed (nothing is presented if the
    ///   task was cancelled before the call).
    ///
    /// > Important: Main actor. Answers exactly once and dismisses the composer exactly once, as
    /// > ``present(from:animated:handler:)`` does.
    public func present(from viewController: UIViewController, animated: Bool = true) async throws
      -> MFMailComposeResult
    {
      try Task.checkCancellation()
      let previous = mailComposeDelegate
      let delegate = MailComposeDelegate()
      mailComposeDelegate = delegate
      return try await delegate.session.present(self, delegate: delegate, from: viewController, animated: animated) {
        [weak self, weak previous] in self?.mailComposeDelegate = previous
      }
    }
  }

  /// The mail composer's delegate for one presentation: tells its session how the user finished.
  @MainActor
  final class MailComposeDelegate: NSObject, MFMailComposeViewControllerDelegate {
    /// The presentation.
    let session: ComposeSession<MFMailComposeResult>

    init(handler: (@MainActor (Result<MFMailComposeResult, any Error>) -> Void)? = nil) {
      session = ComposeSession(handler: handler)
    }

    /// MessageUI's finish: a failure with an error answers with the error, anything else with the
    /// result. `nonisolated` because the SDK's protocol is not main-actor annotated; MessageUI
    /// calls it on the main thread, which `assumeIsolated` checks.
    nonisolated func mailComposeController(
      _ controller: MFMailComposeViewController,
      didFinishWith result: MFMailComposeResult,
      error: (any Error)?
    ) {
      MainActor.assumeIsolated {
        session.finish(error.map { .failure($0) } ?? .success(result))
      }
    }
  }
#endif
