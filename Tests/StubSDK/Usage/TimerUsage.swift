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
      timer = ClosureTimer.schedule(every: .seconds(1), on: .mainActor) { @MainActor [weak self] timer in
        guard let self else { return timer.invalidate() }
        self.field.text = "tick"
      }
      ClosureTimer.schedule(after: .seconds(2), on: .mainActor) { @MainActor _ in self.field.isEnabled = false }
    }
  }
#endif
