// Client code for Scripts/typecheck-uikit.sh: the seed's view-controller factory.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import UIKit

  @MainActor
  final class DetailViewController: UIViewController, @MainActor Presentable {
    var item = ""

    init() { super.init(nibName: nil, bundle: nil) }
    required init?(coder: NSCoder) { nil }

    func cancelTapped() { requestDismiss() }
  }

  @MainActor
  final class FactoryUsage: UIViewController {
    func showDetail() {
      let navigation = UINavigationController.make(DetailViewController.self, owner: self) { detail in
        detail.item = "first"
      } onDismissRequest: { presenter, _ in
        presenter.dismiss(animated: true, completion: nil)
      }
      present(navigation, animated: true, completion: nil)
      let plain = UINavigationController.make(DetailViewController.self) { detail in
        detail.dismiss(animated: true, completion: nil)
      }
      _ = plain
    }
  }
#endif
