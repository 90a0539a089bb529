/// An alert: a ``Dialog`` of ``AlertStyle``. A title, a message, buttons each with its own
/// closure, optional text fields, and an optional whole-dialog handler; presented once by any
/// ``DialogPresenter``.
///
/// Build it button by button, each button with its action:
///
/// ```swift
/// let alert = AlertDialog(title: "Save changes?", message: "Your edits are not saved yet.")
/// alert.addButton("Cancel", role: .cancel)
/// alert.addButton("Save") { _ in document.save() }
/// alert.addButton("Discard", role: .destructive) { _ in document.discard() }
/// let result = try await alert.present(on: TerminalPresenter())
/// ```
///
/// or in the classic form, with one handler that receives the chosen index (cancel 0, the others
/// from 1, as UIAlertView numbers them):
///
/// ```swift
/// let alert = AlertDialog(title: "Save changes?", cancelButtonTitle: "Cancel", otherButtonTitles: "Save", "Discard") {
///   index in print("chose", index)
/// }
/// ```
///
/// Button indices are given in the order buttons are added, and never change.
///
/// > Important: Thread-safe. Every closure runs once, in the isolation of the place it is written,
/// > in the order and on the terms ``Dialog`` states. The validation rules are the exception: the
/// > presenter calls them on its own thread, as the text changes.
public typealias AlertDialog = Dialog<AlertStyle>

extension Dialog where Style == AlertStyle {
  /// Creates an alert in the classic UIAlertView form: one handler that receives the chosen
  /// button's index.
  ///
  /// ```swift
  /// let alert = AlertDialog(title: "Delete?", cancelButtonTitle: "Keep", otherButtonTitles: "Delete") { index in
  ///   if index == 1 { delete() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - title: The alert's title.
  ///   - message: The text under the title.
  ///   - cancelButtonTitle: The cancel button, index 0; `nil` for none.
  ///   - otherButtonTitles: The other buttons, from index 1 (from 0 without a cancel button).
  ///   - handler: Runs once with the chosen index, or ``DialogResult/dismissedIndex`` (`-1`) for
  ///     a dismissal without a cancel button.
  ///
  /// > Important: `handler` runs once, after the chosen button's own action, and is released
  /// > right after. It keeps the isolation of the place it is written: in a `@MainActor` view
  /// > controller it may call the controller's methods.
  public convenience init(
    title: String?,
    message: String? = nil,
    cancelButtonTitle: String?,
    otherButtonTitles: String...,
    @_inheritActorContext handler: @escaping @isolated(any) @Sendable (_ index: Int) -> Void
  ) {
    self.init(title: title, message: message)
    core.configureClassic(
      buttons: [(cancelButtonTitle, .cancel)] + otherButtonTitles.map { ($0, .default) },
      handler: handler
    )
  }

  /// The text fields, in order.
  public var textFields: [DialogTextField] { core.textFields }

  /// Adds a text field, as UIAlertController does; its text is reported in
  /// ``DialogResult/textFieldValues`` at the returned position.
  ///
  /// ```swift
  /// let name = login.addTextField(placeholder: "Name")
  /// let password = login.addTextField(placeholder: "Password", isSecure: true)
  /// login.addButton("Sign in") { result in signIn(result.textFieldValues[name], result.textFieldValues[password]) }
  /// ```
  ///
  /// - Parameters:
  ///   - placeholder: The hint shown while the field is empty; a terminal uses it as the prompt.
  ///   - isSecure: Whether the text is hidden; presenters never echo it.
  /// - Returns: The field's position in ``DialogResult/textFieldValues``.
  ///
  /// > Important: Add fields before presenting; adding one afterwards stops the program.
  @discardableResult
  public func addTextField(placeholder: String = "", isSecure: Bool = false) -> Int {
    core.addTextField(placeholder: placeholder, isSecure: isSecure)
  }

  /// Sets the rule that enables every button except the cancel button, destructive buttons
  /// included, while the text is valid.
  ///
  /// ```swift
  /// login.enableButtons { values in !values[0].isEmpty && values[1].count >= 8 }
  /// ```
  ///
  /// Use ``enableFirstOtherButton(when:)`` for BlocksKit's rule, which governs one button only.
  ///
  /// - Parameter rule: Receives the current text of every field; `true` enables the buttons.
  ///
  /// > Important: The presenter calls `rule` as the text changes, on its own thread, any number
  /// > of times; it should be fast and free of side effects. Set it before presenting; setting
  /// > this rule or the other replaces the one set before. It is released after the answer.
  public func enableButtons(when rule: @escaping @Sendable (_ textFieldValues: [String]) -> Bool) {
    core.setValidation(rule, for: .allButCancel, function: "enableButtons(when:)")
  }

  /// Sets the rule that enables the first other button (the first button whose role is
  /// ``DialogButton/Role/default``) while the text is valid: BlocksKit's
  /// `shouldEnableFirstOtherButton`. Every other button, destructive ones included, stays enabled.
  ///
  /// ```swift
  /// let share = AlertDialog(title: "Share link")
  /// share.addTextField(placeholder: "Address")
  /// share.addButton("Cancel", role: .cancel)
  /// share.addButton("Send") { result in print("send to", result.textFieldValues[0]) }
  /// share.addButton("Copy link") { _ in print("copied") }
  /// share.enableFirstOtherButton { values in values[0].contains("@") }   // "Copy link" always works
  /// ```
  ///
  /// - Parameter rule: Receives the current text of every field; `true` enables the button.
  ///
  /// > Important: The presenter calls `rule` as the text changes, on its own thread, any number
  /// > of times; it should be fast and free of side effects. Set it before presenting; setting
  /// > this rule or ``enableButtons(when:)`` replaces the one set before. It is released after the
  /// > answer. Without a button of role ``DialogButton/Role/default`` the rule governs nothing.
  public func enableFirstOtherButton(when rule: @escaping @Sendable (_ textFieldValues: [String]) -> Bool) {
    core.setValidation(rule, for: .firstOther, function: "enableFirstOtherButton(when:)")
  }
}

#if !canImport(SwiftUI)
  /// The name ``AlertDialog`` had before 0.1.0.
  ///
  /// Kept only where SwiftUI cannot be imported (Linux, Windows): on Apple platforms a file that
  /// imports ClosureKit and SwiftUI could not write `AlertDialog`, which SwiftUI also declares.
  @available(*, deprecated, renamed: "AlertDialog")
  public typealias Alert = AlertDialog
#endif
