/// Everything a ``DialogPresenter`` needs to show an ``Alert`` or an ``ActionSheet``, and nothing
/// it should call: the button actions stay in the dialog.
///
/// ```swift
/// struct PrintingPresenter: DialogPresenter {
///   func present(_ request: DialogRequest) async -> DialogAnswer {
///     for (index, button) in request.buttons.enumerated() { print(index + 1, button.title) }
///     return .dismissed(textFieldValues: [])
///   }
/// }
/// ```
///
/// > Important: Safe to pass to any thread. ``isButtonEnabled(at:textFieldValues:)`` calls the
/// > dialog's validation closure on the calling thread; a presenter calls it as the text changes.
public struct DialogRequest: Sendable {
  /// How a dialog is shown.
  ///
  /// ```swift
  /// if request.style == .actionSheet { print("choose one") }
  /// ```
  ///
  /// > Important: A value type; safe to pass to any thread.
  public enum Style: Sendable, Hashable {
    /// A centred alert (UIAlertView, `UIAlertController.Style.alert`).
    case alert
    /// A list of choices (UIActionSheet, `UIAlertController.Style.actionSheet`).
    case actionSheet
  }

  /// Alert or action sheet.
  public let style: Style
  /// The dialog's title.
  public let title: String?
  /// The dialog's message.
  public let message: String?
  /// The buttons, in index order.
  public let buttons: [DialogButton]
  /// The text fields, in the order their values are reported.
  public let textFields: [DialogTextField]
  /// The validation rule; `nil` when every button is always enabled.
  let validation: (@Sendable ([String]) -> Bool)?

  /// Creates a request; dialogs build it, and tests of a presenter may build one directly.
  ///
  /// ```swift
  /// let request = DialogRequest(
  ///   style: .alert, title: "Sign in", message: nil,
  ///   buttons: [DialogButton(title: "Cancel", role: .cancel), DialogButton(title: "OK", role: .default)],
  ///   textFields: [DialogTextField(placeholder: "Name", isSecure: false)]
  /// ) { values in !values[0].isEmpty }
  /// ```
  ///
  /// - Parameters:
  ///   - style: Alert or action sheet.
  ///   - title: The dialog's title.
  ///   - message: The dialog's message.
  ///   - buttons: The buttons, in index order.
  ///   - textFields: The text fields.
  ///   - validation: When it returns `false` for the current text, every button except the
  ///     cancel button is disabled. `nil`: always enabled.
  public init(
    style: Style,
    title: String?,
    message: String?,
    buttons: [DialogButton],
    textFields: [DialogTextField] = [],
    validation: (@Sendable (_ textFieldValues: [String]) -> Bool)? = nil
  ) {
    self.style = style
    self.title = title
    self.message = message
    self.buttons = buttons
    self.textFields = textFields
    self.validation = validation
  }

  /// The index of the button with the role ``DialogButton/Role/cancel``, if there is one.
  ///
  /// ```swift
  /// let fallback = request.cancelButtonIndex
  /// ```
  public var cancelButtonIndex: Int? {
    buttons.firstIndex { $0.role == .cancel }
  }

  /// Whether the button at `index` can be chosen while the text fields hold `textFieldValues`.
  ///
  /// ```swift
  /// let canSignIn = request.isButtonEnabled(at: 1, textFieldValues: ["bob", ""])
  /// ```
  ///
  /// - Parameters:
  ///   - index: A button index; out of range answers `false`.
  ///   - textFieldValues: The current text of each field.
  /// - Returns: `true` for the cancel button; for the others, what the validation closure says.
  ///
  /// > Important: Calls the dialog's validation closure synchronously on this thread.
  public func isButtonEnabled(at index: Int, textFieldValues: [String]) -> Bool {
    guard buttons.indices.contains(index) else { return false }
    if buttons[index].role == .cancel { return true }
    return validation?(textFieldValues) ?? true
  }

  /// What a request shows, without its validation closure: safe to keep after the answer.
  ///
  /// ```swift
  /// let shown = request.summary
  /// print(shown.title ?? "", shown.buttons.map(\.title))
  /// ```
  ///
  /// > Important: A value type; safe to pass to any thread.
  public struct Summary: Sendable, Hashable {
    /// Alert or action sheet.
    public let style: Style
    /// The dialog's title.
    public let title: String?
    /// The dialog's message.
    public let message: String?
    /// The buttons, in index order.
    public let buttons: [DialogButton]
    /// The text fields, in order.
    public let textFields: [DialogTextField]
  }

  /// The request without its validation closure.
  public var summary: Summary {
    Summary(style: style, title: title, message: message, buttons: buttons, textFields: textFields)
  }
}
