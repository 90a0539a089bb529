#if canImport(UIKit)
  import ClosureKit
  import UIKit

  /// One presentation of a composer (mail, message) by `present(from:)`: it dismisses the composer
  /// exactly once, then calls the handler exactly once, then releases everything, whichever comes
  /// first of the composer's finish and the presenting task's cancellation.
  ///
  /// The composer holds its delegate weakly, so the delegate (which owns this session) is kept
  /// alive by ``keepAlive`` from ``start(_:delegate:from:animated:)`` until the handler has run.
  @MainActor
  final class ComposeSession<Outcome: Sendable> {
    /// The caller's handler; `nil` once called.
    private var handler: (@MainActor (Result<Outcome, any Error>) -> Void)?
    /// Keeps the delegate alive until the handler has run.
    let keepAlive = KeepAlive()
    /// The presented composer; held weakly (it is the presenter's to keep).
    private weak var composer: UIViewController?
    /// Whether presentation and dismissal are animated.
    private var animated = true
    /// Whether UIKit has finished presenting the composer.
    private var isPresented = false
    /// Whether the task was cancelled before the composer was on screen.
    private var isCancelPending = false
    /// Whether the dismissal has started: the outcome is then fixed.
    private var isDismissing = false

    init(handler: (@MainActor (Result<Outcome, any Error>) -> Void)?) {
      self.handler = handler
    }

    /// Sets the handler, for a caller that has it only after the session was made.
    func onAnswer(_ handler: @escaping @MainActor (Result<Outcome, any Error>) -> Void) {
      self.handler = handler
    }

    /// Retains `delegate` (already set as the composer's delegate) and presents the composer.
    func start(_ composer: UIViewController, delegate: AnyObject, from viewController: UIViewController, animated: Bool)
    {
      self.composer = composer
      self.animated = animated
      keepAlive.retain(delegate)
      viewController.present(composer, animated: animated) { [self] in
        isPresented = true
        if isCancelPending { cancel() }
      }
    }

    /// The async form of both composers' `present(from:animated:)`: presents with `delegate`
    /// (already set as the composer's delegate), waits for the answer, and calls `restore` (which
    /// puts the previous delegate back) just before returning it. Cancelling the calling task
    /// dismisses the composer and throws `CancellationError`.
    func present(
      _ composer: UIViewController,
      delegate: AnyObject,
      from viewController: UIViewController,
      animated: Bool,
      restoringDelegate restore: @escaping @MainActor () -> Void
    ) async throws -> Outcome {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          onAnswer { outcome in
            restore()
            continuation.resume(with: outcome)
          }
          start(composer, delegate: delegate, from: viewController, animated: animated)
        }
      } onCancel: {
        Task { @MainActor in self.cancel() }
      }
    }

    /// The composer finished (its delegate was told): dismisses it, then answers with `outcome`.
    func finish(_ outcome: Result<Outcome, any Error>) {
      dismiss(answering: outcome)
    }

    /// The presenting task was cancelled: dismisses the composer (once it is on screen), then
    /// answers with `CancellationError`. Nothing if the composer finished first.
    func cancel() {
      guard isPresented else {
        isCancelPending = true
        return
      }
      dismiss(answering: .failure(CancellationError()))
    }

    /// Starts the one dismissal and answers when it completes.
    private func dismiss(answering outcome: Result<Outcome, any Error>) {
      guard !isDismissing, handler != nil else { return }
      isDismissing = true
      guard let composer else { return answer(outcome) }
      composer.dismiss(animated: animated) { [self] in answer(outcome) }
    }

    /// Calls the handler once, lets it go, then releases the delegate.
    private func answer(_ outcome: Result<Outcome, any Error>) {
      guard let handler else { return }
      self.handler = nil
      handler(outcome)
      keepAlive.release()
    }
  }
#endif
