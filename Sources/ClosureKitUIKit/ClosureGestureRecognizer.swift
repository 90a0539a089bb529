#if canImport(UIKit)
  public import UIKit

  /// A `UIGestureRecognizer` that takes closure actions; every gesture recognizer is one.
  ///
  /// ```swift
  /// let pan = UIPanGestureRecognizer()
  /// pan.addAction { pan in print(pan.state, pan.translation(in: pan.view)) }   // `pan` is a UIPanGestureRecognizer
  /// view.addGestureRecognizer(pan)
  /// ```
  ///
  /// The protocol exists so that a handler receives the recognizer typed as the class you called it
  /// on, with no cast.
  ///
  /// > Important: UIKit sends gesture actions on the main thread; handlers run there, synchronously.
  @MainActor
  public protocol ClosureGestureRecognizer: UIGestureRecognizer {}

  extension UIGestureRecognizer: ClosureGestureRecognizer {}
#endif
