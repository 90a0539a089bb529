/// A choice dialog: a title, a message, buttons each with its own closure, and an optional
/// whole-dialog handler; presented once by any ``DialogPresenter``. Its `Style` says how it is
/// shown: ``AlertDialog`` is `Dialog<AlertStyle>` (a centred alert, which may also have text fields),
/// ``ActionSheetDialog`` is `Dialog<ActionSheetStyle>` (a list of choices).
///
/// ```swift
/// let alert = AlertDialog(title: "Save changes?", message: "Your edits are not saved yet.")
/// alert.addButton("Cancel", role: .cancel)
/// alert.addButton("Save") { _ in document.save() }
/// let result = try await alert.present(on: TerminalPresenter())
/// ```
///
/// What every dialog has (buttons, the whole-dialog handler, the lifecycle closures, presenting)
/// is written here once; what one style adds is in a constrained extension: the classic
/// initialisers, an alert's text fields and validation rules, a sheet's destructive button index.
/// Button indices are given in the order buttons are added, and never change.
///
/// > Important: Thread-safe. Every closure keeps the isolation of the place it is written and
/// > runs there: written in `@MainActor` code (a view controller) it is `@MainActor` and may call
/// > main-actor code directly; written in an actor's method, it runs on that actor; written in
/// > nonisolated code, it stays nonisolated (it is never moved to the main actor). So a dialog
/// > built and presented on the main actor runs every closure on the main actor. In this order,
/// > each once, before ``present(on:isolation:)`` returns: will-present, did-present, the chosen
/// > button's action, the whole-dialog handler, will-dismiss, did-dismiss. A dismissal without a
/// > choice (end of input, an interrupt, the presenter closing, the presenting task cancelled)
/// > chooses the cancel button, or reports a result whose ``DialogResult/index`` is `nil` (`-1`
/// > for the classic handler and the dismissal closures). After the answer the dialog releases
/// > every closure it holds. A dialog is presented once; a second ``present(on:isolation:)``
/// > throws ``DialogError/alreadyPresented``.
public final class Dialog<Style: DialogStyle>: Sendable {
  let core: DialogCore

  /// Creates a dialog with no buttons; add them with ``addButton(_:role:action:)``.
  ///
  /// ```swift
  /// let alert = AlertDialog(title: "Offline", message: "Changes will sync later.")
  /// alert.addButton("OK")
  /// let sheet = ActionSheetDialog(title: "Share to")
  /// ```
  ///
  /// - Parameters:
  ///   - title: The dialog's title.
  ///   - message: The text under the title.
  ///
  /// > Important: Safe from any thread; the dialog keeps no isolation of its own (see the type's
  /// > threading rule for where its closures run).
  public init(title: String? = nil, message: String? = nil) {
    core = DialogCore(style: Style.style, title: title, message: message)
  }

  /// The dialog's title.
  public var title: String? { core.title }
  /// The dialog's message.
  public var message: String? { core.message }
  /// The buttons, in index order.
  public var buttons: [DialogButton] { core.buttons }
  /// The index of the cancel button, if there is one.
  public var cancelButtonIndex: Int? { core.firstButtonIndex(role: .cancel) }

  /// Whether the dialog is being presented: `true` from the start of ``present(on:isolation:)``
  /// (before the will-present closure runs) until the did-dismiss closure has run, whichever
  /// presenter shows it (UIAlertView's and UIActionSheet's `isVisible`).
  ///
  /// ```swift
  /// alert.onDidPresent { print(alert.isPresented) }    // prints "true"
  /// alert.onDidDismiss { _ in print(alert.isPresented) }   // prints "true": still presenting
  /// if !alert.isPresented { print("not on screen") }
  /// ```
  ///
  /// It is `true` in every lifecycle closure and button action, and `false` before the dialog is
  /// presented and once ``present(on:isolation:)`` is about to return.
  ///
  /// > Important: Safe from any thread; a read takes the dialog's lock. It reports the dialog's
  /// > presentation, not what a presenter does on screen: between will-present and the presenter's
  /// > ``DialogRequest/reportPresented()``, the dialog may not be visible yet.
  public var isPresented: Bool { core.isPresented }

  /// Adds a button and returns its index.
  ///
  /// ```swift
  /// let save = alert.addButton("Save") { result in print("saving", result.textFieldValues) }
  /// alert.addButton("Cancel", role: .cancel)
  /// sheet.addButton("Print") { _ in print("printing") }
  /// ```
  ///
  /// - Parameters:
  ///   - title: The text on the button.
  ///   - role: ``DialogButton/Role/default``, ``DialogButton/Role/cancel`` (at most one per
  ///     dialog) or ``DialogButton/Role/destructive``.
  ///   - action: Runs once if this button is chosen, with the result (text-field values
  ///     included); `nil` for none.
  /// - Returns: The button's index: the number of buttons added before it.
  ///
  /// > Important: Add buttons before presenting: adding one afterwards, or a second cancel
  /// > button, is a programmer error that stops the program. `action` runs before the
  /// > whole-dialog handler, in the isolation of the place it is written (`@MainActor` in
  /// > main-actor code), and is released after the answer whether it ran or not.
  @discardableResult
  public func addButton(
    _ title: String,
    role: DialogButton.Role = .default,
    @_inheritActorContext action: (@isolated(any) @Sendable (_ result: DialogResult) -> Void)? = nil
  ) -> Int {
    core.addButton(title, role: role, action: action)
  }

  /// Shows the dialog on `presenter`, runs the chosen button's action and the whole-dialog
  /// handler once, releases every closure, and returns the answer.
  ///
  /// ```swift
  /// let result = try await alert.present(on: TerminalPresenter())
  /// print(result.index as Any, result.title as Any, result.textFieldValues)
  /// ```
  ///
  /// - Parameters:
  ///   - presenter: Shows the dialog: ``DialogPresenter``.
  ///   - isolation: The actor the dialog answers on; defaults to the caller's (`#isolation`).
  /// - Returns: The chosen index, its title, and the text-field values (empty for an action
  ///   sheet).
  /// - Throws: ``DialogError/alreadyPresented`` if the dialog was presented before.
  ///
  /// > Important: Runs on the caller's actor, and every closure runs in its own isolation before
  /// > this returns (see the type's threading rule). Cancelling the task dismisses the dialog on
  /// > every presenter here (terminal, scripted, `UIAlertController`): the cancel path (the cancel
  /// > button's action, the handler, the dismissal closures) runs exactly once. Presenting with no
  /// > buttons stops the program.
  @discardableResult
  public func present(
    on presenter: some DialogPresenter,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> DialogResult {
    try await core.present(on: presenter, isolation: isolation)
  }
}
