/// One text field of an ``AlertDialog``, as a ``DialogPresenter`` sees it.
///
/// ```swift
/// let login = AlertDialog(title: "Sign in")
/// login.addTextField(placeholder: "Name")
/// login.addTextField(placeholder: "Password", isSecure: true)
/// print(login.textFields[1].isSecure)   // true
/// ```
///
/// > Important: A value type; safe to pass to any thread.
public struct DialogTextField: Sendable, Hashable {
  /// The hint shown while the field is empty (in a terminal, the prompt).
  public let placeholder: String
  /// Whether the typed text is hidden: presenters never echo it.
  public let isSecure: Bool

  /// Creates a text field description.
  ///
  /// ```swift
  /// let field = DialogTextField(placeholder: "Password", isSecure: true)
  /// ```
  ///
  /// - Parameters:
  ///   - placeholder: The hint shown while the field is empty.
  ///   - isSecure: Whether the typed text is hidden.
  public init(placeholder: String, isSecure: Bool) {
    self.placeholder = placeholder
    self.isSecure = isSecure
  }
}
