#if canImport(UIKit)
  public import ClosureKit
  public import UIKit

  extension ClosureGestureRecognizer {
    /// Registers a closure that runs on each action message of the recognizer (each state change
    /// that UIKit reports: `.began`, `.changed`, `.ended`, or `.ended` alone for discrete gestures).
    ///
    /// ```swift
    /// let tap = UITapGestureRecognizer()
    /// tap.addAction { tap in print(tap.state, tap.location(in: tap.view)) }
    /// ```
    ///
    /// - Parameter action: Receives the recognizer, typed as the class you called this on.
    /// - Returns: A token that removes this one action; dropping it does not. Actions also end when
    ///   the recognizer is deallocated.
    ///
    /// > Important: Runs synchronously on the main actor, in registration order.
    @discardableResult
    public func addAction(_ action: @escaping @MainActor @Sendable (_ recognizer: Self) -> Void) -> HandlerSubscription
    {
      GestureActionStore.of(self).actions.addHandler { fire in
        MainActor.assumeIsolated {
          guard let recognizer = fire.recognizer as? Self else { return }
          action(recognizer)
        }
      }
    }

    /// Registers a closure bound to `owner`, which it receives as a strong parameter.
    ///
    /// ```swift
    /// pan.addAction(owner: self) { screen, pan in screen.drag(by: pan.translation(in: screen.view)) }
    /// ```
    ///
    /// - Parameters:
    ///   - owner: Held weakly; the action ends when it is deallocated.
    ///   - action: Receives the owner and the recognizer.
    /// - Returns: A token that removes this one action; dropping it does not.
    ///
    /// > Important: Runs synchronously on the main actor.
    @discardableResult
    public func addAction<Owner: AnyObject & Sendable>(
      owner: Owner,
      _ action: @escaping @MainActor @Sendable (_ owner: Owner, _ recognizer: Self) -> Void
    ) -> HandlerSubscription {
      GestureActionStore.of(self).actions.addHandler(owner: owner) { owner, fire in
        MainActor.assumeIsolated {
          guard let recognizer = fire.recognizer as? Self else { return }
          action(owner, recognizer)
        }
      }
    }
  }

  extension UIGestureRecognizer {
    /// Creates a recognizer whose action is `action`.
    ///
    /// ```swift
    /// let swipe = UISwipeGestureRecognizer { recognizer in print("swiped", recognizer.state) }
    /// view.addGestureRecognizer(swipe)
    /// ```
    ///
    /// - Parameter action: Receives the recognizer on each action message. To receive it typed as
    ///   the subclass, create the recognizer with `init()` and call `addAction(_:)`.
    ///
    /// > Important: Runs synchronously on the main actor.
    public convenience init(action: @escaping @MainActor @Sendable (_ recognizer: UIGestureRecognizer) -> Void) {
      self.init(target: nil, action: nil)
      addAction(action)
    }
  }
#endif
