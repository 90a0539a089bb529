#if canImport(UIKit)
  public import UIKit

  /// A `UIControl` that takes closure actions; every `UIControl` is one.
  ///
  /// ```swift
  /// let toggle = UISwitch()
  /// toggle.addAction(for: .valueChanged) { toggle, _ in print(toggle.isOn) }   // `toggle` is a UISwitch
  /// ```
  ///
  /// The protocol exists so that a handler receives the control typed as the class you called it
  /// on, with no cast.
  ///
  /// > Important: UIKit sends control actions on the main thread; the default handlers run there,
  /// > synchronously, on the main actor.
  @MainActor
  public protocol ClosureControl: UIControl {}

  extension UIControl: ClosureControl {}
#endif
