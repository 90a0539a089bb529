// Negative control for Scripts/typecheck-uikit.sh: this file must NOT type-check. If it ever does,
// the stub SDK has stopped checking selectors and the layer's type-check proves nothing.
// expected-error: has no member 'fired'
#if canImport(UIKit)
  import UIKit

  final class NegativeControlTarget: NSObject {
    @objc func fire(_ sender: UIControl) {}
  }

  @MainActor
  func negativeControl(_ control: UIControl) {
    // Wrong: `fired(_:)` does not exist; the method is `fire(_:)`.
    control.addTarget(NegativeControlTarget(), action: #selector(NegativeControlTarget.fired(_:)), for: .touchUpInside)
  }
#endif
