/// What a ``DialogPresenter`` reports back: a button was chosen, or the dialog was dismissed.
///
/// ```swift
/// struct AlwaysOK: DialogPresenter {
///   func present(_ request: DialogRequest) async -> DialogAnswer {
///     .button(request.buttons.count - 1, textFieldValues: request.textFields.map { _ in "" })
///   }
/// }
/// ```
///
/// > Important: A value type; safe to pass to any thread.
public enum DialogAnswer: Sendable, Hashable {
  /// The user chose the button at this index, which must be in range and enabled for these
  /// values (``DialogRequest/isButtonEnabled(at:textFieldValues:)``).
  case button(Int, textFieldValues: [String])
  /// The dialog ended without a choice: end of input, an interrupt, the presenter closing.
  case dismissed(textFieldValues: [String])
}
