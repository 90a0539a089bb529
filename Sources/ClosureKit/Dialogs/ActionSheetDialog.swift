/// An action sheet: a ``Dialog`` of ``ActionSheetStyle``. A list of choices, each with its own
/// closure, plus an optional whole-dialog handler; presented once by any ``DialogPresenter``.
///
/// ```swift
/// let sheet = ActionSheetDialog(title: "Photo")
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
/// let sheet = ActionSheetDialog(
///   title: "Photo", cancelButtonTitle: "Cancel", destructiveButtonTitle: "Delete",
///   otherButtonTitles: "Share", "Print"
/// ) { index in print("chose", index) }   // Delete 0, Share 1, Print 2, Cancel 3
/// ```
///
/// > Important: Thread-safe. Every closure runs once, in the isolation of the place it is written,
/// > in the order and on the terms ``Dialog`` states. A sheet has no text fields: the
/// > ``DialogResult/textFieldValues`` of its answer are empty.
public typealias ActionSheetDialog = Dialog<ActionSheetStyle>

extension Dialog where Style == ActionSheetStyle {
  /// Creates an action sheet in the classic UIActionSheet form: one handler that receives the
  /// chosen button's index.
  ///
  /// ```swift
  /// let sheet = ActionSheetDialog(
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

#if !canImport(SwiftUI)
  /// The name ``ActionSheetDialog`` had before 0.1.0.
  ///
  /// Kept only where SwiftUI cannot be imported (Linux, Windows): on Apple platforms a file that
  /// imports ClosureKit and SwiftUI could not write `ActionSheetDialog`, which SwiftUI also declares.
  @available(*, deprecated, renamed: "ActionSheetDialog")
  public typealias ActionSheet = ActionSheetDialog
#endif
