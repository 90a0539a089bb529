// Negative control for Scripts/typecheck-uikit.sh: this file must NOT type-check. If it ever does,
// the stub headers have lost their main-actor annotations (NS_SWIFT_UI_ACTOR).
// expected-error: can not be mutated from a nonisolated context
#if canImport(UIKit)
  import UIKit

  // Wrong: UIControl is main-actor isolated; this function is not.
  func negativeControlNonisolated(_ control: UIControl) {
    control.isEnabled = false
  }
#endif
