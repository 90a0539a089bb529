#if canImport(UIKit)
  import ClosureKit
  import UIKit

  /// Resumes a presentation's continuation exactly once, and then lets the request (with its
  /// validation closure) go.
  @MainActor
  final class DialogAnswerOnce {
    /// The pending presentation; `nil` once answered.
    private var continuation: CheckedContinuation<DialogAnswer, Never>?
    /// The request, for validation; `nil` once answered.
    private var request: DialogRequest?
    /// The text-field values last seen.
    var values: [String] = []

    init(request: DialogRequest, continuation: CheckedContinuation<DialogAnswer, Never>) {
      self.request = request
      self.continuation = continuation
    }

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
