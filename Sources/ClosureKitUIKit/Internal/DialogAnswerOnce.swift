#if canImport(UIKit)
  import ClosureKit
  import UIKit

  /// Resumes a presentation's continuation exactly once, and then lets the request (with its
  /// validation closure) go; dismisses the controller when the presenting task is cancelled.
  @MainActor
  final class DialogAnswerOnce {
    /// The pending presentation; `nil` once answered.
    private var continuation: CheckedContinuation<DialogAnswer, Never>?
    /// The request, for validation; `nil` once answered.
    private var request: DialogRequest?
    /// The text-field values last seen.
    var values: [String] = []
    /// The controller showing the request; held weakly (it holds this object's sentinel).
    weak var controller: UIAlertController?
    /// Whether UIKit has finished presenting the controller.
    private var isPresented = false
    /// Whether the presenting task was cancelled before the controller was on screen.
    private var isCancelPending = false
    /// Whether a dismissal for cancellation has been started.
    private var isDismissing = false

    init(request: DialogRequest, continuation: CheckedContinuation<DialogAnswer, Never>) {
      self.request = request
      self.continuation = continuation
    }

    /// Whether the presentation is answered.
    var isAnswered: Bool { continuation == nil }

    /// Answers, the first time only.
    func give(_ answer: DialogAnswer) {
      request = nil
      continuation?.resume(returning: answer)
      continuation = nil
    }

    /// Whether the button at `index` is enabled for `values`; all buttons are off once answered.
    func isButtonEnabled(at index: Int, textFieldValues values: [String]) -> Bool {
      request?.isButtonEnabled(at: index, textFieldValues: values) ?? false
    }

    /// UIKit's presentation completion: reports the dialog on screen, or dismisses it at once if
    /// the task was cancelled meanwhile.
    func didPresent() {
      isPresented = true
      request?.reportPresented()
      if isCancelPending { cancel() }
    }

    /// The presenting task was cancelled: dismisses the controller, then answers with a
    /// dismissal; nothing if a tap answered first. Runs the dismissal once, however often called.
    func cancel() {
      guard !isAnswered, !isDismissing else { return }
      guard let controller else { return give(.dismissed(textFieldValues: values)) }
      guard isPresented else {
        isCancelPending = true
        return
      }
      isDismissing = true
      controller.dismiss(animated: true) { [self] in
        give(.dismissed(textFieldValues: values))
      }
    }
  }

  /// Attached to a `UIAlertController`: when the controller is deallocated without an action having
  /// been tapped, the presentation is answered as dismissed.
  final class DismissalSentinel: Sendable {
    /// The answer to give a dismissal to.
    let answer: DialogAnswerOnce

    init(_ answer: DialogAnswerOnce) {
      self.answer = answer
    }

    /// Makes `controller` retain the sentinel.
    @MainActor
    func attach(to controller: UIAlertController) {
      Association.set(self, on: controller, key: Association.key(for: DismissalSentinel.self))
    }

    deinit {
      let answer = answer
      Task { @MainActor in answer.give(.dismissed(textFieldValues: answer.values)) }
    }
  }
#endif
