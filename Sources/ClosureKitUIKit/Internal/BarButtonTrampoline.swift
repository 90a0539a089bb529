#if canImport(UIKit)
  import UIKit

  /// The target of a closure-backed bar button item; attached to the item so it lives as long.
  @MainActor
  final class BarButtonTrampoline: NSObject {
    /// The closure to run with the item.
    let action: @MainActor @Sendable (UIBarButtonItem) -> Void

    init(_ action: @escaping @MainActor @Sendable (UIBarButtonItem) -> Void) {
      self.action = action
    }

    /// UIKit's action message for the item.
    @objc func itemWasTapped(_ sender: UIBarButtonItem) {
      action(sender)
    }

    /// The selector UIKit sends.
    static var selector: Selector { #selector(BarButtonTrampoline.itemWasTapped(_:)) }

    /// Makes `item` retain this trampoline.
    func attach(to item: UIBarButtonItem) {
      Association.set(self, on: item, key: Association.key(for: BarButtonTrampoline.self))
    }
  }
#endif
