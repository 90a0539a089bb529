#if canImport(UIKit)
  public import UIKit

  /// Where an action sheet's popover points on iPad (and in regular-width layouts).
  ///
  /// ```swift
  /// let presenter = AlertControllerPresenter(presentingFrom: self, anchor: .barButtonItem(shareItem))
  /// ```
  ///
  /// UIKit raises an exception when an action sheet is shown as a popover with no anchor; the
  /// presenter therefore always sets one, by default the centre of the presenting view.
  ///
  /// > Important: Main-actor objects: create and use it on the main actor.
  public enum PopoverAnchor: Sendable {
    /// A rectangle in a view's coordinates; `nil` means the view's bounds.
    case view(UIView, rect: CGRect?)
    /// A bar button item.
    case barButtonItem(UIBarButtonItem)
  }
#endif
