/// An action sheet: a ``Dialog`` of ``ActionSheetStyle``; a list of choices, each with its own closure, plus an optional whole-dialog
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
/// > before ``Dialog/present(on:isolation:)`` returns: will-present, did-present, the chosen button's
/// > action, the whole-dialog handler, will-dismiss, did-dismiss. A dismissal without a choice
/// > (end of input, an interrupt, the presenter closing, the presenting task cancelled) chooses the
/// > cancel button, or reports a result whose ``DialogResult/index`` is `nil` (`-1` for the classic
/// > handler and the dismissal closures). After the answer the sheet releases every closure it
/// > holds. A sheet is presented once; a second ``Dialog/present(on:isolation:)`` throws
/// > ``DialogError/alreadyPresented``.
public typealias ActionSheet = Dialog<ActionSheetStyle>

extension Dialog where Style == ActionSheetStyle {
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

  /// The index of the first destructive button, if there is one.
  public var destructiveButtonIndex: Int? { core.firstButtonIndex(role: .destructive) }
}
