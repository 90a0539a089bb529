#if canImport(UIKit)
  public import ClosureKit
  public import Foundation
  public import UIKit

  extension UIView {
    /// Adds a tap recognizer whose action runs `action` when the tap is recognized.
    ///
    /// ```swift
    /// let token = avatar.addTapGesture(taps: 2) { tap in print("double tap at", tap.location(in: tap.view)) }
    /// token.cancel()   // removes the recognizer from the view
    /// ```
    ///
    /// - Parameters:
    ///   - taps: `numberOfTapsRequired`; at least 1.
    ///   - touches: `numberOfTouchesRequired`; at least 1.
    ///   - action: Receives the recognizer once per recognized tap (state `.ended`).
    /// - Returns: A token that removes the recognizer from the view; dropping it does not.
    ///
    /// > Important: Also sets `isUserInteractionEnabled`, which a `UIImageView` or `UILabel` has off.
    @discardableResult
    public func addTapGesture(
      taps: Int = 1,
      touches: Int = 1,
      _ action: @escaping @MainActor @Sendable (_ recognizer: UITapGestureRecognizer) -> Void
    ) -> Subscription {
      if taps < 1 { fatalError("UIView.addTapGesture(taps:): the argument `taps` must be at least 1") }
      if touches < 1 { fatalError("UIView.addTapGesture(touches:): the argument `touches` must be at least 1") }
      let recognizer = UITapGestureRecognizer()
      recognizer.numberOfTapsRequired = taps
      recognizer.numberOfTouchesRequired = touches
      return attach(recognizer, recognizer.addAction { tap in if tap.state == .ended { action(tap) } })
    }

    /// Adds a long-press recognizer; `action` runs on each state change (`.began`, `.changed`,
    /// `.ended`).
    ///
    /// ```swift
    /// cell.addLongPressGesture { press in if press.state == .began { showMenu() } }
    /// ```
    ///
    /// - Parameters:
    ///   - minimumDuration: `minimumPressDuration`, in seconds; finite, not negative.
    ///   - action: Receives the recognizer.
    /// - Returns: A token that removes the recognizer from the view; dropping it does not.
    ///
    /// > Important: Runs synchronously on the main actor.
    @discardableResult
    public func addLongPressGesture(
      minimumDuration: TimeInterval = 0.5,
      _ action: @escaping @MainActor @Sendable (_ recognizer: UILongPressGestureRecognizer) -> Void
    ) -> Subscription {
      if !minimumDuration.isFinite || minimumDuration < 0 {
        fatalError(
          "UIView.addLongPressGesture(minimumDuration:): the argument `minimumDuration` must be a finite number of seconds, zero or more, got \(minimumDuration)"
        )
      }
      let recognizer = UILongPressGestureRecognizer()
      recognizer.minimumPressDuration = minimumDuration
      return attach(recognizer, recognizer.addAction(action))
    }

    /// Adds a pan recognizer; `action` runs on each state change.
    ///
    /// ```swift
    /// card.addPanGesture { pan in card.center.x += pan.translation(in: card).x }
    /// ```
    ///
    /// - Parameter action: Receives the recognizer (`translation(in:)`, `velocity(in:)`, `state`).
    /// - Returns: A token that removes the recognizer from the view; dropping it does not.
    ///
    /// > Important: Runs synchronously on the main actor.
    @discardableResult
    public func addPanGesture(
      _ action: @escaping @MainActor @Sendable (_ recognizer: UIPanGestureRecognizer) -> Void
    ) -> Subscription {
      let recognizer = UIPanGestureRecognizer()
      return attach(recognizer, recognizer.addAction(action))
    }

    /// Adds a swipe recognizer for `direction`; `action` runs once per recognized swipe.
    ///
    /// ```swift
    /// page.addSwipeGesture(direction: .left) { _ in showNextPage() }
    /// ```
    ///
    /// - Parameters:
    ///   - direction: The permitted directions; not empty.
    ///   - action: Receives the recognizer.
    /// - Returns: A token that removes the recognizer from the view; dropping it does not.
    ///
    /// > Important: Runs synchronously on the main actor.
    @discardableResult
    public func addSwipeGesture(
      direction: UISwipeGestureRecognizer.Direction = .right,
      _ action: @escaping @MainActor @Sendable (_ recognizer: UISwipeGestureRecognizer) -> Void
    ) -> Subscription {
      if direction.isEmpty {
        fatalError("UIView.addSwipeGesture(direction:): the argument `direction` must not be empty")
      }
      let recognizer = UISwipeGestureRecognizer()
      recognizer.direction = direction
      return attach(recognizer, recognizer.addAction { swipe in if swipe.state == .ended { action(swipe) } })
    }

    /// Adds `recognizer` to the view; the returned token cancels `action` at once and removes the
    /// recognizer from the view on the main actor.
    private func attach(_ recognizer: UIGestureRecognizer, _ action: Subscription) -> Subscription {
      isUserInteractionEnabled = true
      addGestureRecognizer(recognizer)
      return Subscription { [weak self, weak recognizer] in
        action.cancel()
        Task { @MainActor in
          guard let self, let recognizer else { return }
          self.removeGestureRecognizer(recognizer)
        }
      }
    }
  }
#endif
