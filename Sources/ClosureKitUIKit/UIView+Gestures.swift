#if canImport(UIKit)
  public import ClosureKit
  public import Foundation
  public import UIKit

  extension UIView {
    /// Adds `recognizer` to the view and runs `action` on its action messages: one entry point for
    /// every kind of gesture, configured as UIKit configures it.
    ///
    /// ```swift
    /// let doubleTap = UITapGestureRecognizer()
    /// doubleTap.numberOfTapsRequired = 2
    /// let token = avatar.addGesture(doubleTap) { tap in print("double tap at", tap.location(in: tap.view)) }
    /// token.cancel()   // removes the recognizer from the view
    /// card.addGesture(UIPanGestureRecognizer()) { pan in card.center.x += pan.translation(in: card).x }
    /// ```
    ///
    /// A tap or swipe recognizer's action runs once per recognized gesture (state `.ended`); any
    /// other recognizer's runs on each state change (`.began`, `.changed`, `.ended` for a pan or a
    /// long press).
    ///
    /// - Parameters:
    ///   - recognizer: A recognizer not yet attached to a view, configured as you want it
    ///     (`numberOfTapsRequired`, `minimumPressDuration`, `direction`, …).
    ///   - action: Receives the recognizer, typed as the class you passed.
    /// - Returns: A token that cancels `action` at once and removes the recognizer from the view on
    ///   the main actor; dropping it does not.
    ///
    /// > Important: Runs synchronously on the main actor, inside UIKit's action message. Also sets
    /// > `isUserInteractionEnabled`, which a `UIImageView` or `UILabel` has off. The view retains
    /// > the recognizer, which retains `action`: capture the view weakly, or use the recognizer's
    /// > `view`.
    @discardableResult
    public func addGesture<Recognizer: UIGestureRecognizer>(
      _ recognizer: Recognizer,
      _ action: @escaping @MainActor @Sendable (_ recognizer: Recognizer) -> Void
    ) -> HandlerSubscription {
      let discrete = recognizer is UITapGestureRecognizer || recognizer is UISwipeGestureRecognizer
      let token =
        discrete
        ? recognizer.addAction { recognizer in if recognizer.state == .ended { action(recognizer) } }
        : recognizer.addAction(action)
      return attach(recognizer, token)
    }

    /// Deprecated: use `addGesture(_:_:)` with a `UITapGestureRecognizer`.
    @available(*, deprecated, message: "use addGesture(_:_:) with a UITapGestureRecognizer")
    @discardableResult
    public func addTapGesture(
      taps: Int = 1,
      touches: Int = 1,
      _ action: @escaping @MainActor @Sendable (_ recognizer: UITapGestureRecognizer) -> Void
    ) -> HandlerSubscription {
      if taps < 1 { fatalError("UIView.addTapGesture(taps:): the argument `taps` must be at least 1") }
      if touches < 1 { fatalError("UIView.addTapGesture(touches:): the argument `touches` must be at least 1") }
      let recognizer = UITapGestureRecognizer()
      recognizer.numberOfTapsRequired = taps
      recognizer.numberOfTouchesRequired = touches
      return addGesture(recognizer, action)
    }

    /// Deprecated: use `addGesture(_:_:)` with a `UILongPressGestureRecognizer`.
    @available(*, deprecated, message: "use addGesture(_:_:) with a UILongPressGestureRecognizer")
    @discardableResult
    public func addLongPressGesture(
      minimumDuration: TimeInterval = 0.5,
      _ action: @escaping @MainActor @Sendable (_ recognizer: UILongPressGestureRecognizer) -> Void
    ) -> HandlerSubscription {
      if !minimumDuration.isFinite || minimumDuration < 0 {
        fatalError(
          "UIView.addLongPressGesture(minimumDuration:): the argument `minimumDuration` must be a finite number of seconds, zero or more, got \(minimumDuration)"
        )
      }
      let recognizer = UILongPressGestureRecognizer()
      recognizer.minimumPressDuration = minimumDuration
      return addGesture(recognizer, action)
    }

    /// Deprecated: use `addGesture(_:_:)` with a `UIPanGestureRecognizer`.
    @available(*, deprecated, message: "use addGesture(_:_:) with a UIPanGestureRecognizer")
    @discardableResult
    public func addPanGesture(
      _ action: @escaping @MainActor @Sendable (_ recognizer: UIPanGestureRecognizer) -> Void
    ) -> HandlerSubscription {
      addGesture(UIPanGestureRecognizer(), action)
    }

    /// Deprecated: use `addGesture(_:_:)` with a `UISwipeGestureRecognizer`.
    @available(*, deprecated, message: "use addGesture(_:_:) with a UISwipeGestureRecognizer")
    @discardableResult
    public func addSwipeGesture(
      direction: UISwipeGestureRecognizer.Direction = .right,
      _ action: @escaping @MainActor @Sendable (_ recognizer: UISwipeGestureRecognizer) -> Void
    ) -> HandlerSubscription {
      if direction.isEmpty {
        fatalError("UIView.addSwipeGesture(direction:): the argument `direction` must not be empty")
      }
      let recognizer = UISwipeGestureRecognizer()
      recognizer.direction = direction
      return addGesture(recognizer, action)
    }

    /// Adds `recognizer` to the view; the returned token cancels `action` at once and removes the
    /// recognizer from the view on the main actor.
    private func attach(_ recognizer: UIGestureRecognizer, _ action: HandlerSubscription) -> HandlerSubscription {
      isUserInteractionEnabled = true
      addGestureRecognizer(recognizer)
      return HandlerSubscription { [weak self, weak recognizer] in
        action.cancel()
        Task { @MainActor in
          guard let self, let recognizer else { return }
          self.removeGestureRecognizer(recognizer)
        }
      }
    }
  }
#endif
