/// One button of an ``AlertDialog`` or an ``ActionSheetDialog``, as a ``DialogPresenter`` sees it: its title
/// and its role. The button's action stays inside the dialog; a presenter never calls it.
///
/// ```swift
/// let alert = AlertDialog(title: "Delete the file?")
/// alert.addButton("Delete", role: .destructive) { _ in print("deleted") }
/// print(alert.buttons[0])   // DialogButton(title: "Delete", role: .destructive)
/// ```
///
/// > Important: A value type; safe to pass to any thread.
public struct DialogButton: Sendable, Hashable {
  /// What a button does, which decides how a presenter shows it and what a dismissal chooses.
  ///
  /// ```swift
  /// alert.addButton("Cancel", role: .cancel)
  /// ```
  ///
  /// > Important: A value type; safe to pass to any thread.
  public enum Role: Sendable, Hashable {
    /// An ordinary choice.
    case `default`
    /// Leaves the dialog without doing anything. A dialog has at most one; a dismissal without a
    /// choice (end of input, an interrupt, the presenter closing) chooses it.
    case cancel
    /// Destroys or deletes something; presenters show it so that it stands out.
    case destructive
  }

  /// The text shown on the button.
  public let title: String
  /// The button's role.
  public let role: Role

  /// Creates a button description.
  ///
  /// ```swift
  /// let button = DialogButton(title: "OK", role: .default)
  /// ```
  ///
  /// - Parameters:
  ///   - title: The text shown on the button.
  ///   - role: The button's role.
  public init(title: String, role: Role) {
    self.title = title
    self.role = role
  }
}
