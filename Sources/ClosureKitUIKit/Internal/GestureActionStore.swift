#if canImport(UIKit)
  import ClosureKit
  import UIKit

  /// The closure actions of one gesture recognizer, attached to it as an associated object; its
  /// single target is registered with the recognizer on first use.
  @MainActor
  final class GestureActionStore: NSObject {
    /// The handlers, in registration order.
    let actions = Event<GestureFire>()

    /// The store of `recognizer`, created, registered as its target and attached on first use.
    static func of(_ recognizer: UIGestureRecognizer) -> GestureActionStore {
      if let existing = Association.existingValue(of: recognizer, as: GestureActionStore.self) { return existing }
      let store = Association.value(of: recognizer) { GestureActionStore() }
      recognizer.addTarget(store, action: #selector(GestureActionStore.recognizerDidFire(_:)))
      return store
    }

    /// UIKit's action message for the recognizer.
    @objc func recognizerDidFire(_ recognizer: UIGestureRecognizer) {
      actions.send(GestureFire(recognizer: recognizer))
    }
  }

  /// One action message of a recognizer.
  struct GestureFire: Sendable {
    /// The recognizer that fired; read its `state` and `location(in:)`.
    let recognizer: UIGestureRecognizer
  }
#endif
