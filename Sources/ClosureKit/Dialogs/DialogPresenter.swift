/// Shows a dialog to the user and reports the answer: a terminal, a scripted test double,
/// UIAlertController.
///
/// ```swift
/// struct AlwaysCancel: DialogPresenter {
///   func present(_ request: DialogRequest) async -> DialogAnswer {
///     .dismissed(textFieldValues: request.textFields.map { _ in "" })
///   }
/// }
/// let alert = Alert(title: "Hi", cancelButtonTitle: "Close") { index in print("chose", index) }
/// let result = try await alert.present(on: AlwaysCancel())   // result.isDismissed == true
/// ```
///
/// A presenter only describes and collects: the dialog itself runs the button actions and the
/// whole-dialog handler, once, after `present(_:)` returns.
///
/// > Important: `present(_:)` may be called from any task, also for several dialogs at once. It
/// > must return exactly one answer and must not fail: a closed input, an error or an interrupt is
/// > ``DialogAnswer/dismissed(textFieldValues:)``. A chosen button must be in range and enabled
/// > (``DialogRequest/isButtonEnabled(at:textFieldValues:)``). Do not keep the request after
/// > returning: it holds the dialog's validation closure.
public protocol DialogPresenter: Sendable {
  /// Shows `request` and returns the user's answer.
  ///
  /// ```swift
  /// let answer = await presenter.present(request)
  /// ```
  ///
  /// - Parameter request: What to show: title, message, buttons, text fields, validation.
  /// - Returns: The chosen button with the text-field values, or a dismissal.
  func present(_ request: DialogRequest) async -> DialogAnswer
}
