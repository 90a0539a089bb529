#if canImport(UIKit)
  import Foundation
  public import UIKit

  /// A presentation controller's delegate made of closures, for the user's dismissal of a popover
  /// or a sheet; get it with `presentationController.closureDelegate` (a popover's
  /// `popoverPresentationController` is one).
  ///
  /// ```swift
  /// let settings = UIViewController()
  /// settings.modalPresentationStyle = .popover
  /// if let popover = settings.popoverPresentationController {
  ///   popover.sourceView = view
  ///   popover.closureDelegate.shouldDismiss = { _ in !hasUnsavedChanges }
  ///   popover.closureDelegate.didDismiss = { _ in reload() }
  /// }
  /// present(settings, animated: true, completion: nil)
  /// ```
  ///
  /// It implements `UIAdaptivePresentationControllerDelegate`'s `presentationControllerShouldDismiss(_:)`
  /// and `presentationControllerDidDismiss(_:)` (iOS 13), which replace the popover delegate's
  /// deprecated `popoverPresentationControllerShouldDismissPopover(_:)` and
  /// `popoverPresentationControllerDidDismissPopover(_:)`, and serve sheets as well. Only the
  /// closures that are set count: `responds(to:)` answers yes for a method whose closure is set (or
  /// that the previous delegate implements), so UIKit keeps its default for the others. A delegate
  /// set before keeps being called: it answers `shouldDismiss` when no closure is set, is told
  /// `didDismiss` after the closure, and receives every other delegate method (a popover delegate's
  /// `adaptivePresentationStyle(for:)` included).
  ///
  /// > Important: Main-actor bound; UIKit calls it on the main thread. Both closures run only for a
  /// > dismissal by the user (a tap outside a popover, a sheet swiped down), never for
  /// > `dismiss(animated:completion:)`. Setting a closure re-installs the delegate, because UIKit
  /// > caches `responds(to:)` answers when its delegate is set.
  @MainActor
  public final class PresentationControllerDelegate: ClosureDelegateProxy, UIAdaptivePresentationControllerDelegate {
    /// Asked whether the user may dismiss the presentation; `false` keeps it on screen.
    public var shouldDismiss: (@MainActor (_ presentationController: UIPresentationController) -> Bool)? {
      didSet { closuresChanged() }
    }
    /// Told after the user dismissed the presentation and the animations finished.
    public var didDismiss: (@MainActor (_ presentationController: UIPresentationController) -> Void)? {
      didSet { closuresChanged() }
    }

    /// The delegate the presentation controller had before, which keeps being called; held weakly.
    public var previousDelegate: (any UIAdaptivePresentationControllerDelegate)? {
      forwarding.previous as? any UIAdaptivePresentationControllerDelegate
    }

    init(presentationController: UIPresentationController) {
      super.init(delegator: presentationController, property: \.delegate)
    }

    /// Whether a closure is set for `selector`; `nil` when it is not one of the closure methods.
    override func closureIsSet(for selector: Selector) -> Bool? {
      switch selector {
      case #selector((any UIAdaptivePresentationControllerDelegate).presentationControllerShouldDismiss(_:)):
        shouldDismiss != nil
      case #selector((any UIAdaptivePresentationControllerDelegate).presentationControllerDidDismiss(_:)):
        didDismiss != nil
      default: nil
      }
    }

    /// UIKit asks whether the user may dismiss: ``shouldDismiss``, else the previous delegate.
    ///
    /// ```swift
    /// popover.closureDelegate.shouldDismiss = { _ in !hasUnsavedChanges }
    /// ```
    ///
    /// - Parameter presentationController: The presentation controller.
    /// - Returns: The closure's answer, else the previous delegate's, else `true` (UIKit's default).
    ///
    /// > Important: Called by UIKit on the main actor, at any time and possibly more than once.
    public func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool {
      if let shouldDismiss { return shouldDismiss(presentationController) }
      return previousDelegate?.presentationControllerShouldDismiss?(presentationController) ?? true
    }

    /// UIKit tells that the user dismissed the presentation: ``didDismiss`` runs, then the previous
    /// delegate's method.
    ///
    /// ```swift
    /// popover.closureDelegate.didDismiss = { _ in reload() }
    /// ```
    ///
    /// - Parameter presentationController: The presentation controller.
    ///
    /// > Important: Called by UIKit on the main actor, after the dismissal's animations.
    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
      didDismiss?(presentationController)
      previousDelegate?.presentationControllerDidDismiss?(presentationController)
    }
  }

  extension UIPresentationController {
    /// The closure delegate of this presentation controller (a popover's, a sheet's), installed as
    /// its `delegate` on first use.
    ///
    /// ```swift
    /// sheet.presentationController?.closureDelegate.didDismiss = { _ in reload() }
    /// ```
    ///
    /// A delegate set before keeps being called. If you set `delegate` to another object later, the
    /// closures stop until you read this property again, which re-installs it in front of that one.
    ///
    /// > Important: Main actor; lives as long as the presentation controller. Set it before the
    /// > presentation: UIKit creates a new presentation controller for each presentation.
    public var closureDelegate: PresentationControllerDelegate {
      .attached(to: self) { PresentationControllerDelegate(presentationController: self) }
    }
  }
#endif
