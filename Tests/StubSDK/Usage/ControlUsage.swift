// Client code for Scripts/typecheck-uikit.sh: uses ClosureKitUIKit's public API as an app would, so
// that labels, access levels, inference of `Self` and isolation are checked from outside the module.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import Dispatch
  import UIKit

  @MainActor
  final class ControlUsage: UIViewController {
    let field = UITextField()
    let button = UIButton()
    var log: [String] = []
    let bag = SubscriptionBag()

    func bind() {
      field.addAction(for: .editingChanged) { field, _ in
        let text: String? = field.text  // `field` is a UITextField, no cast
        self.log.append(text ?? "")
      }
      let token = button.addAction(for: [.touchUpInside, .touchUpOutside]) { button, event in
        let control: UIButton = button
        _ = (control, event)
      }
      token.store(in: bag)
      button.actions(for: .touchUpInside).onMainActor.addHandler(owner: self) { screen, sent in
        let control: UIButton = sent.control  // typed as the class asked, no cast
        screen.log.append("tap \(control.isEnabled)")
      }
      button.actions(for: .touchUpInside).addHandler(on: .queue(.global())) { _ in }
      button.actions(for: .touchUpInside).onMainActor.addHandler { _ in self.log.append("later") }
      button.actions(for: .valueChanged).onMainActor.once { sent in _ = sent.event }
      button.addAction(for: .touchUpInside, owner: self) { screen, button, event in
        let control: UIButton = button
        screen.log.append("owned \(control.isEnabled) \(event == nil)")
      }
      button.removeActions(for: .touchUpOutside)
      _ = button.actionCount(for: .allEvents)
      let pair = TargetAction(attachedTo: button) { sender in _ = sender }
      button.addTarget(pair.target, action: pair.action, for: .valueChanged)
      pair.detach(from: button)
    }

    func stream() async {
      for await sent in button.actions(for: .touchUpInside).values {
        let control: UIButton = sent.control
        _ = (control, sent.event)
        break
      }
    }
  }
#endif
