/// An action sheet: a list of choices, each with its own closure, plus an optional whole-dialog
/// handler; presented once by any ``DialogPresenter``.
///
/// ```swift
/// let sheet = ActionSheet(title: "Photo")
/// sheet.addButton("Delete", role: .destructive) { _ in photo.delete() }
/// sheet.addButton("Share") { _ in photo.share() }
/// sheet.addButton("Cancel", role: .cancel)
/// let result = try await sheet.present(on: TerminalPresenter())
/// ```
///
/// The classic initialiser numbers the buttons as UIActionSheet does: the destructive button 0,
/// then the others, the cancel button last.
///
/// ```swift
/// let sheet = ActionSheet(
///   title: "Photo", cancelButtonTitle: "Cancel", destructiveButtonTitle: "Delete",
///   otherButtonTitles: "Share", "Print"
/// ) { index in print("chose", index) }   // Delete 0, Share 1, Print 2, Cancel 3
/// ```
///
/// > Important: Thread-safe. Every closure keeps the isolation of the place it is written and
/// > runs there: written in `@MainActor` code (a view controller) it is `@MainActor` and may call
/// > main-actor code directly; written in an actor's method, it runs on that actor; written in
/// > nonisolated code, it stays nonisolated (it is never moved to the main actor). So a sheet built
/// > and presented on the main actor runs every closure on the main actor. In this order, each once,
/// > before ``present(on:isolation:)`` returns: will-present, did-present, the chosen button's
/// > action, the whole-dialog handler, will-dismiss, did-dismiss. A dismissal without a choice
/// > (end of input, an interrupt, the presenter closing, the presenting task cancelled) chooses the
/// > cancel button, or reports a result whose ``DialogResult/index`` is `nil` (`-1` for the classic
/// > handler and the dismissal closures). After the answer the sheet releases every closure it
/// > holds. A sheet is presented once; a second ``present(on:isolation:)`` throws
/// > ``DialogError/alreadyPresented``.
public final class ActionSheet: Sendable {
  let core: DialogCore

  /// Creates an action sheet with no buttons; add them with ``addButton(_:role:action:)``.
  ///
  /// ```swift
  /// let sheet = ActionSheet(title: "Share to")
  /// ```
  ///
  /// - Parameters:
  ///   - title: The sheet's title.
  ///   - message: The text under the title.
  public init(title: String? = nil, message: String? = nil) {
    core = DialogCore(style: .actionSheet, title: title, message: message)
  }

  /// Creates an action sheet in the classic UIActionSheet form: one handler that receives the
  /// chosen button's index.
  ///
  /// ```swift
  /// let sheet = ActionSheet(
  ///   title: nil, cancelButtonTitle: "Cancel", destructiveButtonTitle: "Erase", otherButtonTitles: "Copy"
  /// ) { index in print(index) }   // Erase 0, Copy 1, Cancel 2
  /// ```
  ///
  /// - Parameters:
  ///   - title: The sheet's title.
  ///   - message: The text under the title.
  ///   - cancelButtonTitle: The cancel button, added last; `nil` for none.
  ///   - destructiveButtonTitle: The destructive button, index 0; `nil` for none.
  ///   - otherButtonTitles: The other buttons, after the destructive one.
  ///   - handler: Runs once with the chosen index, or ``DialogResult/dismissedIndex`` (`-1`) for
  ///     a dismissal without a cancel button.
  ///
  /// > Important: `handler` runs once, after the chosen button's own action, and is released
  /// > right after. It keeps the isolation of the place it is written: in a `@MainActor` view
  /// > controller it may call the controller's methods. Buttons added later with
  /// > ``addButton(_:role:action:)`` come after the cancel button, as in UIActionSheet.
  public convenience init(
    title: String?,
    message: String? = nil,
    cancelButtonTitle: String?,
    destructiveButtonTitle: String?,
    otherButtonTitles: String...,
    @_inheritActorContext handler: @escaping @isolated(any) @Sendable (_ index: Int) -> Void
  ) {
    self.init(title: title, message: message)
    core.configureClassic(
      buttons: [(destructiveButtonTitle, .destructive)] + otherButtonTitles.map { ($0, .default) }
        + [(cancelButtonTitle, .cancel)],
      handler: handler
    )
  }

  /// The sheet's title.
  public var title: String? { core.title }
  /// The sheet's message.
  public var message: String? { core.message }
  /// The buttons, in index order.
  public var buttons: [DialogButton] { core.buttons }
  /// The index of the cancel button, if there is one.
  public var cancelButtonIndex: Int? { core.firstButtonIndex(role: .cancel) }

  /// Whether the action sheet is being presented: `true` from the start of ``present(on:isolation:)``
  /// (before the will-present closure runs) until the did-dismiss closure has run, whichever
  /// presenter shows it (UIAlertView's and UIActionSheet's `isVisible`).
  ///
  /// ```swift
  /// sheet.onDidPresent { print(sheet.isPresented) }    // prints "true"
  /// sheet.onDidDismiss { _ in print(sheet.isPresented) }   // prints "true": still presenting
  /// if !sheet.isPresented { print("not on screen") }
  /// ```
  ///
  /// It is `true` in every lifecycle closure and button action, and `false` before the action sheet is
  /// presented and once ``present(on:isolation:)`` is about to return.
  ///
  /// > Important: Safe from any thread; a read takes the action sheet's lock. It reports the action sheet's
  /// > presentation, not what a presenter does on screen: between will-present and the presenter's
  /// > ``DialogRequest/reportPresented()``, the action sheet may not be visible yet.
  public var isPresented: Bool { core.isPresented }
  /// The index of the first destructive button, if there is one.
  public var destructiveButtonIndex: Int? { core.firstButtonIndex(role: .destructive) }

  /// Adds a button and returns its index.
  ///
  /// ```swift
  /// sheet.addButton("Print") { _ in printer.print(photo) }
  /// ```
  ///
  /// - Parameters:
  ///   - title: The text on the button.
  ///   - role: ``DialogButton/Role/default``, ``DialogButton/Role/cancel`` (at most one per
  ///     sheet) or ``DialogButton/Role/destructive``.
  ///   - action: Runs once if this button is chosen; `nil` for none.
  /// - Returns: The button's index: the number of buttons added before it.
  ///
  /// > Important: Add buttons before presenting: adding one afterwards, or a second cancel
  /// > button, stops the program. `action` runs before the whole-dialog handler, in the isolation of the place it is written
  /// > (`@MainActor` in main-actor code), and is released after the answer whether it ran or not.
  @discardableResult
  public func addButton(
    _ title: String,
    role: DialogButton.Role = .default,
    @_inheritActorContext action: (@isolated(any) @Sendable (_ result: DialogResult) -> Void)? = nil
  ) -> Int {
    core.addButton(title, role: role, action: action)
  }

  /// Shows the sheet on `presenter`, runs the chosen button's action and the whole-dialog
  /// handler once, releases every closure, and returns the answer.
  ///
  /// ```swift
  /// let result = try await sheet.present(on: TerminalPresenter())
  /// ```
  ///
  /// - Parameters:
  ///   - presenter: Shows the sheet: ``DialogPresenter``.
  ///   - isolation: The actor the dialog answers on; defaults to the caller's (`#isolation`).
  /// - Returns: The chosen index and its title (``DialogResult/textFieldValues`` is empty).
  /// - Throws: ``DialogError/alreadyPresented`` if the sheet was presented before.
  ///
  /// > Important: Runs on the caller's actor, and every closure runs in its own isolation before
  /// > this returns (see the type's threading rule). Cancelling the task dismisses the sheet on
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
