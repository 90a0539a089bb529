public import ClosureKit

/// A `DialogPresenter` for tests: answers each dialog from a script, as a user would, and
/// records what it was shown.
///
/// ```swift
/// let presenter = ScriptedPresenter([.enterText(["bob", "secret"]), .chooseTitled("Sign in")])
/// let result = try await login.present(on: presenter)
/// #expect(result.title == "Sign in")
/// #expect(presenter.presentedRequests.count == 1)
/// ```
///
/// Each presentation consumes steps until one answers it: ``Step/enterText(_:)`` types into the
/// fields and goes on; ``Step/choose(_:)`` and ``Step/chooseTitled(_:)`` answer if that button
/// exists and is enabled, else the step is recorded in ``rejectedSteps`` and has no effect, as a
/// tap on a disabled button has none; ``Step/dismiss`` dismisses; ``Step/waitUntilCancelled``
/// waits for the presenting task to be cancelled, then dismisses. When the script runs out, the
/// dialog is dismissed, as at the end of a terminal's input.
///
/// > Important: Thread-safe; several dialogs may be presented at once, and take their steps in
/// > the order they reach the presenter. Each presentation reports the dialog on screen
/// > (`DialogRequest.reportPresented()`) before its first step. A presenting task that is cancelled
/// > dismisses the dialog: at once if it was cancelled before, at the next step otherwise.
public final class ScriptedPresenter: DialogPresenter {
  /// One thing the scripted user does.
  ///
  /// ```swift
  /// let steps: [ScriptedPresenter.Step] = [.enterText(["bob"]), .choose(1)]
  /// ```
  ///
  /// > Important: A value type; safe to pass to any thread.
  public enum Step: Sendable, Hashable {
    /// Chooses the button at this index.
    case choose(Int)
    /// Chooses the first button with this title.
    case chooseTitled(String)
    /// Replaces the text of the fields, in order; missing values leave a field as it is.
    case enterText([String])
    /// Dismisses the dialog without a choice.
    case dismiss
    /// Keeps the dialog on screen until the presenting task is cancelled, then dismisses it, as
    /// a user who never answers (for tests of programmatic dismissal).
    case waitUntilCancelled
  }

  /// The remaining steps and the log.
  private struct State {
    var steps: [Step]
    var requests: [DialogRequest.Summary] = []
    var rejected: [Step] = []
  }

  private let state: Locked<State>

  /// Creates a presenter that answers from `steps`.
  ///
  /// ```swift
  /// let presenter = ScriptedPresenter([.choose(0), .dismiss])
  /// ```
  ///
  /// - Parameter steps: What the user does, across every dialog presented, in order.
  public init(_ steps: [Step]) {
    state = Locked(State(steps: steps))
  }

  /// What each presented dialog showed, in presentation order (without its closures).
  ///
  /// ```swift
  /// #expect(presenter.presentedRequests.map(\.title) == ["Delete?"])
  /// ```
  public var presentedRequests: [DialogRequest.Summary] {
    state.withLock { $0.requests }
  }

  /// The choices that had no effect because the button did not exist or was disabled.
  ///
  /// ```swift
  /// #expect(presenter.rejectedSteps == [.chooseTitled("OK")])
  /// ```
  public var rejectedSteps: [Step] {
    state.withLock { $0.rejected }
  }

  /// The steps not used yet.
  ///
  /// ```swift
  /// #expect(presenter.remainingSteps.isEmpty)
  /// ```
  public var remainingSteps: [Step] {
    state.withLock { $0.steps }
  }

  /// Answers `request` from the script.
  ///
  /// ```swift
  /// let answer = await presenter.present(request)
  /// ```
  ///
  /// - Parameter request: The dialog to answer.
  /// - Returns: The scripted choice, or a dismissal when the script says so or runs out.
  ///
  /// > Important: Calls the request's validation closure on this task, outside the presenter's
  /// > lock. A cancelled task answers with a dismissal without consuming further steps.
  public func present(_ request: DialogRequest) async -> DialogAnswer {
    state.withLock { $0.requests.append(request.summary) }
    request.reportPresented()
    var values = request.textFields.map { _ in "" }
    while !Task.isCancelled, let step = nextStep() {
      switch step {
      case .waitUntilCancelled:
        await Self.waitForCancellation()
        return .dismissed(textFieldValues: values)
      case .enterText(let typed):
        for (index, text) in typed.enumerated() where values.indices.contains(index) { values[index] = text }
      case .dismiss:
        return .dismissed(textFieldValues: values)
      case .choose(let index):
        if request.isButtonEnabled(at: index, textFieldValues: values) {
          return .button(index, textFieldValues: values)
        }
        reject(step)
      case .chooseTitled(let title):
        if let index = request.buttons.firstIndex(where: { $0.title == title }),
          request.isButtonEnabled(at: index, textFieldValues: values)
        {
          return .button(index, textFieldValues: values)
        }
        reject(step)
      }
    }
    return .dismissed(textFieldValues: values)
  }

  /// Suspends until the current task is cancelled (at once if it already is).
  private static func waitForCancellation() async {
    let waiter = CancellationWaiter()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in waiter.wait(continuation) }
    } onCancel: {
      waiter.cancel()
    }
  }

  private func nextStep() -> Step? {
    state.withLock { $0.steps.isEmpty ? nil : $0.steps.removeFirst() }
  }

  private func reject(_ step: Step) {
    state.withLock { $0.rejected.append(step) }
  }
}

/// One wait for cancellation: resumed once, by whichever of `wait` and `cancel` comes second.
private final class CancellationWaiter: Sendable {
  /// The suspended waiter, and whether cancellation came.
  private let state = Locked<(continuation: CheckedContinuation<Void, Never>?, isCancelled: Bool)>((nil, false))

  func wait(_ continuation: CheckedContinuation<Void, Never>) {
    let resumeNow = state.withLock { state -> Bool in
      if state.isCancelled { return true }
      state.continuation = continuation
      return false
    }
    if resumeNow { continuation.resume() }
  }

  func cancel() {
    let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.isCancelled = true
      defer { state.continuation = nil }
      return state.continuation
    }
    waiting?.resume()
  }
}
