// Negative control for Scripts/typecheck-uikit.sh: this file must NOT type-check. If it ever does,
// the stub headers have lost Apple's nullability (`UITextField.text` is `String?`).
// expected-error: must be unwrapped
#if canImport(UIKit)
  import UIKit

  @MainActor
  func negativeControlOptional(_ field: UITextField) -> Int {
    // Wrong: `text` is optional.
    field.text.count
  }
#endif
