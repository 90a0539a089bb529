// Negative control for Scripts/typecheck-apple-sdk.sh: a selector UIKit does not have. UIKit's
// `-dismissViewControllerAnimated:completion:` is `dismiss(animated:completion:)` in Swift; a
// selector written with the Objective-C spelling's Swift guess must not compile against the SDK.
// expected-error: type 'UIViewController' has no member 'dismissViewController(animated:completion:)'
#if canImport(UIKit)
  import UIKit

  @MainActor
  func dismissSelector() -> Selector {
    #selector(UIViewController.dismissViewController(animated:completion:))
  }
#endif
