// Type-checked by Scripts/typecheck-apple.sh against Tests/StubSDK's UIKit and a ClosureKit whose
// Apple branches are selected: `NSObject: Configurable, DismissRequesting`
// (Sources/ClosureKit/Configuration/NSObject+ClosureKit.swift) used as UIKit code uses it, with no conformance
// declared by the app. On Linux these calls do not compile (there is no NSObject conformance).
#if canImport(UIKit)
  import ClosureKit
  import UIKit

  @MainActor
  func configureAControllerAndRequestItsDismissal() -> Bool {
    let controller = UIViewController().configured { $0.title = "Detail" }
    controller.onDismissRequest { _ in }
    let view = UIView().configured { _ in }
    _ = view.requestDismiss()
    return controller.requestDismiss()
  }
#endif
