// Client code for Scripts/typecheck-uikit.sh: gestures and bar button items, as an app uses them.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import UIKit

  @MainActor
  final class GestureAndBarUsage: UIViewController {
    var points: [CGPoint] = []

    func bind() {
      let pan = UIPanGestureRecognizer()
      pan.addAction { pan in
        let typed: UIPanGestureRecognizer = pan
        self.points.append(typed.translation(in: typed.view))
      }
      pan.addAction(owner: self) { screen, pan in
        if pan.state == .ended { screen.points.removeAll() }
      }
      view.addGestureRecognizer(pan)
      let swipe = UISwipeGestureRecognizer { recognizer in _ = recognizer.location(in: nil) }
      view.addGestureRecognizer(swipe)

      let doubleTap = UITapGestureRecognizer()
      doubleTap.numberOfTapsRequired = 2
      let tap = view.addGesture(doubleTap) { tap in self.points.append(tap.location(in: tap.view)) }
      let press = UILongPressGestureRecognizer()
      press.minimumPressDuration = 1
      view.addGesture(press) { press in _ = press.state }
      view.addGesture(UIPanGestureRecognizer()) { pan in _ = pan.velocity(in: nil) }
      let sideways = UISwipeGestureRecognizer()
      sideways.direction = [.left, .right]
      view.addGesture(sideways) { _ in }
      tap.cancel()

      let save = UIBarButtonItem(title: "Save", style: .done) { item in item.isEnabled = false }
      let share = UIBarButtonItem(image: UIImage(named: "share")) { _ in }
      let cancel = UIBarButtonItem(barButtonSystemItem: .cancel) { _ in self.dismiss(animated: true, completion: nil) }
      _ = [save, share, cancel]
    }
  }
#endif
