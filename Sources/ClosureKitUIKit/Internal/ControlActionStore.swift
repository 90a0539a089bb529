#if canImport(UIKit)
  import ClosureKit
  import UIKit

  /// One firing of a control event: the control and the `UIEvent` UIKit passed.
  struct ControlFire: Sendable {
    /// The control that sent the action.
    let control: UIControl
    /// The event UIKit passed, if any.
    let event: UIEvent?
  }

  /// The closure actions of one control, attached to it as an associated object so they live and
  /// die with it. One trampoline target per control-event bit tells the table which event fired
  /// (UIKit's action message does not say).
  @MainActor
  final class ControlActionStore {
    /// The table that runs the actions (the core's UIControl model).
    let actions = ControlActions<UIControl.Event, ControlFire>()
    /// The trampoline registered with the control for each event bit.
    private var trampolines: [UInt: ControlTrampoline] = [:]

    /// The store of `control`, created and attached on first use.
    static func of(_ control: UIControl) -> ControlActionStore {
      Association.value(of: control) { ControlActionStore() }
    }

    /// Registers one trampoline with `control` for every bit of `events` that has none yet.
    func registerTargets(on control: UIControl, for events: UIControl.Event) {
      for bit in Self.bits(of: events) where trampolines[bit] == nil {
        let trampoline = ControlTrampoline(event: UIControl.Event(rawValue: bit), actions: actions)
        trampolines[bit] = trampoline
        control.addTarget(
          trampoline,
          action: #selector(ControlTrampoline.sendActions(_:event:)),
          for: UIControl.Event(rawValue: bit)
        )
      }
    }

    /// Unregisters the trampolines of the bits in `events` that no longer have an action.
    func unregisterUnusedTargets(on control: UIControl, for events: UIControl.Event) {
      for bit in Self.bits(of: events) {
        guard let trampoline = trampolines[bit],
          actions.actionCount(for: UIControl.Event(rawValue: bit)) == 0
        else { continue }
        control.removeTarget(
          trampoline,
          action: #selector(ControlTrampoline.sendActions(_:event:)),
          for: UIControl.Event(rawValue: bit)
        )
        trampolines[bit] = nil
      }
    }

    /// The single-bit raw values set in `events`, lowest first.
    static func bits(of events: UIControl.Event) -> [UInt] {
      var remaining = UInt(events.rawValue)
      var bits: [UInt] = []
      while remaining != 0 {
        let lowest = remaining & (~remaining &+ 1)
        bits.append(lowest)
        remaining &= ~lowest
      }
      return bits
    }
  }

  /// The target UIKit calls for one control-event bit; it fires the matching closure actions.
  @MainActor
  final class ControlTrampoline: NSObject {
    /// The event bit this trampoline stands for.
    let event: UIControl.Event
    /// The table to fire.
    let actions: ControlActions<UIControl.Event, ControlFire>

    init(event: UIControl.Event, actions: ControlActions<UIControl.Event, ControlFire>) {
      self.event = event
      self.actions = actions
    }

    /// UIKit's action message: `- (void)sendActions:(UIControl *)sender event:(UIEvent *)event`.
    @objc func sendActions(_ sender: UIControl, event: UIEvent?) {
      actions.sendActions(for: self.event, with: ControlFire(control: sender, event: event))
    }
  }
#endif
