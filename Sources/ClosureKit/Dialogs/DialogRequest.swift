/// Everything a ``DialogPresenter`` needs to show an ``AlertDialog`` or an ``ActionSheetDialog``, and nothing
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

  /// AlertDialog or action sheet.
  public let style: Style
  /// The dialog's title.
  public let title: String?
  /// The dialog's message.
  public let message: String?
  /// The buttons, in index order.
  public let buttons: [DialogButton]
  /// The text fields, in the order their values are reported.
  public let textFields: [DialogTextField]
  /// The buttons the validation rule governs.
  public let validatedButtons: ValidatedButtons
  /// The validation rule; `nil` when every button is always enabled.
  let validation: (@Sendable ([String]) -> Bool)?
  /// Where ``reportPresented()`` goes: the dialog being presented; `nil` for a request built
  /// directly.
  let reports: DialogReports?

  /// Which buttons a validation rule enables and disables; the others are always enabled.
  ///
  /// ```swift
  /// if request.validatedButtons == .firstOther { print("only", request.firstOtherButtonIndex as Any) }
  /// ```
  ///
  /// > Important: A value type; safe to pass to any thread.
  public enum ValidatedButtons: Sendable, Hashable {
    /// Every button except the cancel button, destructive ones included (``Dialog/enableButtons(when:)``).
    case allButCancel
    /// Only the first button whose role is ``DialogButton/Role/default``: BlocksKit's and
    /// UIAlertView's "first other button" (``Dialog/enableFirstOtherButton(when:)``).
    case firstOther
  }

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
  ///   - style: AlertDialog or action sheet.
  ///   - title: The dialog's title.
  ///   - message: The dialog's message.
  ///   - buttons: The buttons, in index order.
  ///   - textFields: The text fields.
  ///   - validatedButtons: The buttons `validation` governs. Defaults to
  ///     ``ValidatedButtons/allButCancel``.
  ///   - validation: When it returns `false` for the current text, the buttons it governs are
  ///     disabled. `nil`: always enabled.
  public init(
    style: Style,
    title: String?,
    message: String?,
    buttons: [DialogButton],
    textFields: [DialogTextField] = [],
    validatedButtons: ValidatedButtons = .allButCancel,
    validation: (@Sendable (_ textFieldValues: [String]) -> Bool)? = nil
  ) {
    self.init(
      style: style, title: title, message: message, buttons: buttons, textFields: textFields,
      validatedButtons: validatedButtons, validation: validation, reports: nil
    )
  }

  init(
    style: Style,
    title: String?,
    message: String?,
    buttons: [DialogButton],
    textFields: [DialogTextField],
    validatedButtons: ValidatedButtons,
    validation: (@Sendable ([String]) -> Bool)?,
    reports: DialogReports?
  ) {
    self.style = style
    self.title = title
    self.message = message
    self.buttons = buttons
    self.textFields = textFields
    self.validatedButtons = validatedButtons
    self.validation = validation
    self.reports = reports
  }

  /// The index of the button with the role ``DialogButton/Role/cancel``, if there is one.
  ///
  /// ```swift
  /// let fallback = request.cancelButtonIndex
  /// ```
  public var cancelButtonIndex: Int? {
    buttons.firstIndex { $0.role == .cancel }
  }

  /// The index of the first button with the role ``DialogButton/Role/default`` (neither cancel
  /// nor destructive), as UIAlertView's and UIActionSheet's `firstOtherButtonIndex`.
  ///
  /// ```swift
  /// let signIn = request.firstOtherButtonIndex
  /// ```
  public var firstOtherButtonIndex: Int? {
    buttons.firstIndex { $0.role == .default }
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
  /// - Returns: `true` for a button the rule does not govern (the cancel button always; with
  ///   ``ValidatedButtons/firstOther`` every button but the first other one); for the others,
  ///   what the validation closure says.
  ///
  /// > Important: Calls the dialog's validation closure synchronously on this thread.
  public func isButtonEnabled(at index: Int, textFieldValues: [String]) -> Bool {
    guard buttons.indices.contains(index) else { return false }
    guard let validation else { return true }
    switch validatedButtons {
    case .allButCancel where buttons[index].role == .cancel: return true
    case .firstOther where index != firstOtherButtonIndex: return true
    default: return validation(textFieldValues)
    }
  }

  /// Tells the dialog that it is on screen, so that it runs its did-present closure; a presenter
  /// calls it once it has shown the dialog, before answering.
  ///
  /// ```swift
  /// struct PrintingPresenter: DialogPresenter {
  ///   func present(_ request: DialogRequest) async -> DialogAnswer {
  ///     print(request.title ?? "")
  ///     request.reportPresented()
  ///     return .dismissed(textFieldValues: [])
  ///   }
  /// }
  /// ```
  ///
  /// > Important: Callable from any thread, any number of times: the first call counts, and it
  /// > returns at once (the closure runs on its own isolation, not on this thread). A presenter
  /// > that never calls it still gets the did-present closure run, just before the dismissal
  /// > closures. A request built with the public initialiser reports to nothing.
  public func reportPresented() {
    reports?.presented()
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
    /// AlertDialog or action sheet.
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
