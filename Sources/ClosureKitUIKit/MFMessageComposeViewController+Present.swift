#if canImport(UIKit) && canImport(MessageUI)
  import Foundation
  public import MessageUI
  public import UIKit

  extension MFMessageComposeViewController {
    /// Presents the message composer from `viewController` and calls `handler` once the user has
    /// sent or cancelled the message and the composer is dismissed.
    ///
    /// ```swift
    /// guard MFMessageComposeViewController.canSendText() else { return }
    /// let composer = MFMessageComposeViewController()
    /// composer.recipients = ["+15555550100"]
    /// composer.body = "On my way"
    /// composer.present(from: self) { result in
    ///   if result == .failed { label.text = "Not sent" }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - viewController: The controller to present from.
    ///   - animated: Whether presentation and dismissal are animated. Defaults to `true`.
    ///   - handler: Receives how the user finished: `.cancelled`, `.sent` or `.failed`.
    ///
    /// > Important: Main actor; `handler` runs on it exactly once, after the composer's dismissal
    /// > completed, so it may present something else. The composer is dismissed exactly once, by
    /// > this call: do not dismiss it yourself. Its `messageComposeDelegate` is this call's until
    /// > then (it keeps itself alive: MessageUI holds it weakly), and a delegate set before is put
    /// > back before `handler` runs; then everything is released. Check `canSendText()` first.
    public func present(
      from viewController: UIViewController,
      animated: Bool = true,
      handler: @escaping @MainActor (MessageComposeResult) -> Void
    ) {
      let previous = messageComposeDelegate
      let delegate = MessageComposeDelegate { [weak self, weak previous] outcome in
        self?.messageComposeDelegate = previous
        // Only the async form's cancellation fails; this form has no task to cancel.
        if case .success(let result) = outcome { handler(result) }
      }
      messageComposeDelegate = delegate
      delegate.session.start(self, delegate: delegate, from: viewController, animated: animated)
    }

    /// Presents the message composer from `viewController`, waits until the user has sent or
    /// cancelled the message and the composer is dismissed, and returns how the user finished.
    ///
    /// ```swift
    /// let composer = MFMessageComposeViewController()
    /// composer.body = "On my way"
    /// let result = try await composer.present(from: self)
    /// label.text = result == .sent ? "Sent" : "Not sent"
    /// ```
    ///
    /// - Parameters:
    ///   - viewController: The controller to present from.
    ///   - animated: Whether presentation and dismissal are animated. Defaults to `true`.
    /// - Returns: `.cancelled` (the user cancelled), `.sent` or `.failed`.
    /// - Throws: `CancellationError` when the calling task is cancelled, after the composer's
    ///   dismissal completed (nothing is presented if the task was cancelled before the call).
    ///
    /// > Important: Main actor. Answers exactly once and dismisses the composer exactly once, as
    /// > ``present(from:animated:handler:)`` does.
    public func present(from viewController: UIViewController, animated: Bool = true) async throws
      -> MessageComposeResult
    {
      try Task.checkCancellation()
      let previous = messageComposeDelegate
      let delegate = MessageComposeDelegate()
      messageComposeDelegate = delegate
      return try await delegate.session.present(self, delegate: delegate, from: viewController, animated: animated) {
        [weak self, weak previous] in self?.messageComposeDelegate = previous
      }
    }
  }

  /// The message composer's delegate for one presentation: tells its session how the user
  /// finished.
  @MainActor
  final class MessageComposeDelegate: NSObject, MFMessageComposeViewControllerDelegate {
    /// The presentation.
    let session: ComposeSession<MessageComposeResult>

    init(handler: (@MainActor (Result<MessageComposeResult, any Error>) -> Void)? = nil) {
      session = ComposeSession(handler: handler)
    }

    /// MessageUI's finish. `nonisolated` because the SDK's protocol is not main-actor annotated;
    /// MessageUI calls it on the main thread, which `assumeIsolated` checks.
    nonisolated func messageComposeViewController(
      _ controller: MFMessageComposeViewController,
      didFinishWith result: MessageComposeResult
    ) {
      MainActor.assumeIsolated { session.finish(.success(result)) }
    }
  }
#endif
