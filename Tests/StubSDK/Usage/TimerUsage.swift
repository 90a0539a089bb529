// Client code for Scripts/typecheck-uikit.sh: the seed's NSTimer with a closure is the core's
// ClosureTimer; this checks it reads as intended from main-actor UIKit code.
#if canImport(UIKit)
  import ClosureKit
  import UIKit

  @MainActor
  final class TimerUsage: UIViewController {
    let field = UITextField()
    var timer: ClosureTimer?

    func start() {
      timer = ClosureTimer.onMainActor.schedule(.every(.seconds(1))) { [weak self] timer in
        guard let self else { return timer.invalidate() }
        self.field.text = "tick"
      }
      ClosureTimer.onMainActor.schedule(.after(.seconds(2)), owner: self) { screen, _ in screen.field.isEnabled = false
      }
    }
  }
#endif
