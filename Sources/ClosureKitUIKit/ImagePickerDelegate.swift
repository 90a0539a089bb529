#if canImport(UIKit)
  import Foundation
  public import UIKit

  /// The delegate of a `UIImagePickerController` made of closures, covering both of its delegate
  /// protocols (the picker's and its navigation controller's); get it with
  /// `picker.closureDelegate`.
  ///
  /// ```swift
  /// let picker = UIImagePickerController()
  /// picker.closureDelegate.didFinishPicking = { picker, info in
  ///   preview(info[.originalImage] as? UIImage)
  ///   picker.dismiss(animated: true, completion: nil)
  /// }
  /// present(picker, animated: true, completion: nil)
  /// ```
  ///
  /// Only the closures that are set count: `responds(to:)` answers yes for a method whose closure
  /// is set (or that the previous delegate implements), so UIKit keeps its default behaviour for
  /// the others: with no `didCancel`, UIKit dismisses the picker itself on Cancel. A delegate set
  /// before keeps being called after the closure, and receives every other delegate method.
  ///
  /// > Important: Main-actor bound. Setting a closure re-installs the delegate, because UIKit caches
  /// > `responds(to:)` answers when its delegate is set. A closure you set for `didFinishPicking` or
  /// > `didCancel` must dismiss the picker.
  @MainActor
  public final class ImagePickerDelegate: ClosureDelegateProxy, UIImagePickerControllerDelegate,
    UINavigationControllerDelegate
  {
    /// The previous delegate's type: both protocols, as `UIImagePickerController.delegate` has it.
    public typealias Previous = any UIImagePickerControllerDelegate & UINavigationControllerDelegate

    /// Told when the user picked media; the dictionary is UIKit's info dictionary.
    public var didFinishPicking:
      (@MainActor (_ picker: UIImagePickerController, _ info: [UIImagePickerController.InfoKey: Any]) -> Void)?
    {
      didSet { closuresChanged() }
    }
    /// Told when the user cancelled.
    public var didCancel: (@MainActor (_ picker: UIImagePickerController) -> Void)? {
      didSet { closuresChanged() }
    }
    /// Told before the picker's navigation controller shows a view controller.
    public var willShow:
      (
        @MainActor (
          _ navigationController: UINavigationController, _ viewController: UIViewController, _ animated: Bool
        )
          -> Void
      )?
    {
      didSet { closuresChanged() }
    }
    /// Told after the picker's navigation controller showed a view controller.
    public var didShow:
      (
        @MainActor (
          _ navigationController: UINavigationController, _ viewController: UIViewController, _ animated: Bool
        )
          -> Void
      )?
    {
      didSet { closuresChanged() }
    }

    /// The delegate the picker had before, which keeps being called; held weakly.
    public var previousDelegate: Previous? {
      forwarding.previous as? Previous
    }

    init(picker: UIImagePickerController) {
      super.init(delegator: picker, property: \.delegate)
    }

    /// Whether a closure is set for `selector`; `nil` when it is not one of the closure methods.
    override func closureIsSet(for selector: Selector) -> Bool? {
      switch selector {
      case #selector((any UIImagePickerControllerDelegate).imagePickerController(_:didFinishPickingMediaWithInfo:)):
        didFinishPicking != nil
      case #selector((any UIImagePickerControllerDelegate).imagePickerControllerDidCancel(_:)):
        didCancel != nil
      case #selector((any UINavigationControllerDelegate).navigationController(_:willShow:animated:)):
        willShow != nil
      case #selector((any UINavigationControllerDelegate).navigationController(_:didShow:animated:)):
        didShow != nil
      default: nil
      }
    }

    /// UIKit tells that media was picked: ``didFinishPicking`` runs, then the previous delegate's
    /// method.
    ///
    /// ```swift
    /// picker.closureDelegate.didFinishPicking = { picker, info in picker.dismiss(animated: true, completion: nil) }
    /// ```
    ///
    /// - Parameters:
    ///   - picker: The picker.
    ///   - info: UIKit's info dictionary.
    ///
    /// > Important: Called by UIKit on the main actor.
    public func imagePickerController(
      _ picker: UIImagePickerController,
      didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
    ) {
      didFinishPicking?(picker, info)
      previousDelegate?.imagePickerController?(picker, didFinishPickingMediaWithInfo: info)
    }

    /// UIKit tells that the user cancelled: ``didCancel`` runs, then the previous delegate's method.
    ///
    /// ```swift
    /// picker.closureDelegate.didCancel = { picker in picker.dismiss(animated: true, completion: nil) }
    /// ```
    ///
    /// - Parameter picker: The picker.
    ///
    /// > Important: Called by UIKit on the main actor, only when a closure or the previous delegate
    /// > handles it; otherwise UIKit dismisses the picker itself.
    public func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {
      didCancel?(picker)
      previousDelegate?.imagePickerControllerDidCancel?(picker)
    }

    /// UIKit tells that a view controller will be shown: ``willShow`` runs, then the previous
    /// delegate's method.
    ///
    /// ```swift
    /// picker.closureDelegate.willShow = { _, controller, _ in controller.title = "Photos" }
    /// ```
    ///
    /// - Parameters:
    ///   - navigationController: The picker, as a navigation controller.
    ///   - viewController: The controller being shown.
    ///   - animated: Whether the transition is animated.
    ///
    /// > Important: Called by UIKit on the main actor.
    public func navigationController(
      _ navigationController: UINavigationController,
      willShow viewController: UIViewController,
      animated: Bool
    ) {
      willShow?(navigationController, viewController, animated)
      previousDelegate?.navigationController?(navigationController, willShow: viewController, animated: animated)
    }

    /// UIKit tells that a view controller was shown: ``didShow`` runs, then the previous
    /// delegate's method.
    ///
    /// ```swift
    /// picker.closureDelegate.didShow = { _, controller, _ in controller.title = "Photos" }
    /// ```
    ///
    /// - Parameters:
    ///   - navigationController: The picker, as a navigation controller.
    ///   - viewController: The controller shown.
    ///   - animated: Whether the transition is animated.
    ///
    /// > Important: Called by UIKit on the main actor.
    public func navigationController(
      _ navigationController: UINavigationController,
      didShow viewController: UIViewController,
      animated: Bool
    ) {
      didShow?(navigationController, viewController, animated)
      previousDelegate?.navigationController?(navigationController, didShow: viewController, animated: animated)
    }
  }

  extension UIImagePickerController {
    /// The closure delegate of this picker, installed as its `delegate` on first use.
    ///
    /// ```swift
    /// picker.closureDelegate.didCancel = { picker in picker.dismiss(animated: true, completion: nil) }
    /// ```
    ///
    /// A delegate set before keeps being called. If you set `delegate` to another object later, the
    /// closures stop until you read this property again, which re-installs it in front of that one.
    ///
    /// > Important: Main actor; lives as long as the picker.
    public var closureDelegate: ImagePickerDelegate {
      .attached(to: self) { ImagePickerDelegate(picker: self) }
    }
  }
#endif
