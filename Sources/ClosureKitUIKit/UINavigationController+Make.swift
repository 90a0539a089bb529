#if canImport(UIKit)
  public import ClosureKit
  public import UIKit

  extension UINavigationController {
    /// Creates a view controller, configures it, registers the closure that answers its dismiss
    /// requests, and wraps it in a navigation controller: the seed's view-controller factory.
    ///
    /// ```swift
    /// final class DetailViewController: UIViewController, @MainActor Presentable {
    ///   var item: Item?
    ///   init() { super.init(nibName: nil, bundle: nil) }
    ///   required init?(coder: NSCoder) { nil }
    ///   override func viewDidLoad() {
    ///     super.viewDidLoad()
    ///     navigationItem.leftBarButtonItem = UIBarButtonItem(barButtonSystemItem: .cancel) { [weak self] _ in
    ///       self?.requestDismiss()
    ///     }
    ///   }
    /// }
    ///
    /// let navigation = UINavigationController.make(DetailViewController.self, owner: self) { detail in
    ///   detail.item = items[indexPath.row]
    /// } onDismissRequest: { presenter, detail in
    ///   presenter.dismiss(animated: true, completion: nil)
    /// }
    /// present(navigation, animated: true, completion: nil)
    /// ```
    ///
    /// The presented controller calls `requestDismiss()` (a Cancel or Done button); the presenter,
    /// which showed it, decides how it goes away.
    ///
    /// - Parameters:
    ///   - type: The controller type, created with `init()`.
    ///   - configure: Runs once on the new controller before it is wrapped.
    ///   - onDismissRequest: Runs on the main actor each time the controller calls
    ///     `requestDismiss()`; stored on the controller and released with it.
    /// - Returns: A navigation controller whose root is the new controller.
    ///
    /// > Important: Main actor. `requestDismiss()` must be called on the main actor, as UIKit code
    /// > does; the closure is then called synchronously.
    public static func make<Presented: UIViewController & Presentable>(
      _ type: Presented.Type,
      configure: (Presented) -> Void = { _ in },
      onDismissRequest: @escaping @MainActor @Sendable (_ presented: Presented) -> Void
    ) -> UINavigationController {
      let presented = ClosureKit.make(type, configure: configure) { presented in
        MainActor.assumeIsolated { onDismissRequest(presented) }
      }
      return UINavigationController(rootViewController: presented)
    }

    /// The factory with the dismiss-request closure bound to `owner` (held weakly, passed back
    /// strong), usually the presenting controller.
    ///
    /// ```swift
    /// let navigation = UINavigationController.make(DetailViewController.self, owner: self) { detail in
    ///   detail.item = item
    /// } onDismissRequest: { presenter, _ in
    ///   presenter.dismiss(animated: true, completion: nil)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The controller type, created with `init()`.
    ///   - owner: Held weakly; once it is gone, dismiss requests are not answered.
    ///   - configure: Runs once on the new controller before it is wrapped.
    ///   - onDismissRequest: Receives the owner and the controller, on the main actor.
    /// - Returns: A navigation controller whose root is the new controller.
    ///
    /// > Important: Main actor, as ``make(_:configure:onDismissRequest:)``.
    public static func make<Presented: UIViewController & Presentable, Owner: AnyObject & Sendable>(
      _ type: Presented.Type,
      owner: Owner,
      configure: (Presented) -> Void = { _ in },
      onDismissRequest: @escaping @MainActor @Sendable (_ owner: Owner, _ presented: Presented) -> Void
    ) -> UINavigationController {
      let presented = ClosureKit.make(type, owner: owner, configure: configure) { owner, presented in
        MainActor.assumeIsolated { onDismissRequest(owner, presented) }
      }
      return UINavigationController(rootViewController: presented)
    }
  }
#endif
