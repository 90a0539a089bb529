/// The errors ``Dialog/present(on:isolation:)`` throws (for an ``AlertDialog`` and an ``ActionSheetDialog``).
///
/// ```swift
/// do {
///   _ = try await alert.present(on: presenter)
///   _ = try await alert.present(on: presenter)
/// } catch DialogError.alreadyPresented {
///   print("a dialog answers once")
/// }
/// ```
///
/// > Important: A value type; safe to pass to any thread.
public enum DialogError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The dialog was presented before. A dialog answers once and then releases its closures;
  /// create a new dialog to ask again.
  case alreadyPresented

  /// A sentence that names the error and says what to do.
  ///
  /// ```swift
  /// print(DialogError.alreadyPresented)
  /// ```
  public var description: String {
    switch self {
    case .alreadyPresented:
      "DialogError.alreadyPresented: this dialog was already presented; a dialog is presented once"
    }
  }
}
