// Client code for Scripts/typecheck-uikit.sh: KVO on NSObject with the core's options and change.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import Foundation
  import UIKit

  final class Player: NSObject {
    @objc dynamic var rate: Double = 0
  }

  @MainActor
  final class KeyValueObservingUsage: UIViewController {
    let player = Player()
    let field = UITextField()

    func bind() {
      player.observe(\.rate, options: [.initial, .new]) { change in print(change.newValue as Any) }
      let token = player.observe(\.rate, options: [.old, .new, .prior], on: .mainActor) { change in
        if change.isPrior { print("was", change.oldValue as Any) }
      }
      token.cancel()
      field.observe(\.placeholder, options: [.new]) { change in _ = change.newValue }
    }
  }
#endif
