/// What the user answered: the chosen button, its title, and the text typed into the fields.
///
/// ```swift
/// let result = try await alert.present(on: presenter)
/// if let index = result.index {
///   print("chose", index, result.title ?? "", result.textFieldValues)
/// } else {
///   print("dismissed")
/// }
/// ```
///
/// > Important: A value type; safe to pass to any thread.
public struct DialogResult: Sendable, Hashable {
  /// The index of the chosen button, or `nil` when the dialog was dismissed and has no cancel
  /// button.
  public let index: Int?
  /// The title of the chosen button, or `nil` when ``index`` is `nil`.
  public let title: String?
  /// The text of each text field, in the order the fields were added; empty strings for fields
  /// left empty, and an empty array for a dialog without fields.
  public let textFieldValues: [String]
  /// Whether the dialog ended without an explicit choice (end of input, an interrupt, the
  /// presenter closing). Then ``index`` is the cancel button's index, or `nil` if there is none.
  public let isDismissed: Bool

  /// Creates a result; presenters return a ``DialogAnswer`` instead, and the dialog builds this.
  ///
  /// ```swift
  /// let result = DialogResult(index: 1, title: "OK", textFieldValues: [], isDismissed: false)
  /// ```
  ///
  /// - Parameters:
  ///   - index: The chosen button's index, or `nil` for a dismissal without a cancel button.
  ///   - title: The chosen button's title.
  ///   - textFieldValues: The text of each field.
  ///   - isDismissed: Whether no button was chosen explicitly.
  public init(index: Int?, title: String?, textFieldValues: [String], isDismissed: Bool) {
    self.index = index
    self.title = title
    self.textFieldValues = textFieldValues
    self.isDismissed = isDismissed
  }

  /// The index the classic whole-dialog handler receives for a dismissal without a cancel button:
  /// `-1`, as UIKit's `cancelButtonIndex` reads when there is no cancel button.
  ///
  /// ```swift
  /// let alert = AlertDialog(title: "Hi", cancelButtonTitle: nil, otherButtonTitles: "OK") { index in
  ///   if index == DialogResult.dismissedIndex { print("dismissed") }
  /// }
  /// ```
  public static let dismissedIndex = -1
}
