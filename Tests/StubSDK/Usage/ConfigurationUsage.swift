// Client code for Scripts/typecheck-uikit.sh: the NSObject conformances ClosureKit declares under
// `canImport(ObjectiveC)` (`extension NSObject: Configurable, DismissRequesting`), which a Linux
// build of ClosureKit lacks, used from UIKit code as an app uses them.
#if canImport(UIKit)
  import ClosureKit
  import UIKit

  @MainActor
  final class ConfigurationUsage: UIViewController {
    let label = UILabel().configured { label in
      label.text = "Hello"
      label.numberOfLines = 0
    }
    let slider = UISlider().configured { $0.maximumValue = 10 }

    func showDetail() {
      let detail = UIViewController(nibName: nil, bundle: nil).configured { $0.title = "Detail" }
      // The handler is not isolated (DismissRequesting takes a plain `@Sendable` closure), so it
      // cannot call UIKit here; `UINavigationController.make`'s `onDismissRequest:` is main-actor.
      detail.onDismissRequest { _ in print("dismiss requested") }
      present(detail, animated: true, completion: nil)
      view.addSubview(label)
      _ = detail.requestDismiss()
    }
  }
#endif
