#if canImport(UIKit)
  public import ClosureKit
  public import UIKit

  extension ClosureControl {
    /// Registers a closure that runs each time the control sends one of `events`.
    ///
    /// ```swift
    /// let slider = UISlider()
    /// slider.addAction(for: .valueChanged) { slider, _ in print(slider.value) }
    /// let token = button.addAction(for: [.touchUpInside, .touchUpOutside]) { _, event in print(event as Any) }
    /// token.cancel()
    /// ```
    ///
    /// Several actions may be registered for one event; they run in registration order. An action
    /// registered for several events runs once for each event UIKit sends.
    ///
    /// - Parameters:
    ///   - events: The control events; must not be empty.
    ///   - action: Receives the control, typed as the class you called this on, and the `UIEvent`.
    /// - Returns: A token that removes this one action; dropping it does not. The action also ends
    ///   when the control is deallocated.
    ///
    /// > Important: Runs synchronously on the main actor, inside UIKit's `sendAction`, like a
    /// > target-action method. Cancelling the token (from any thread) stops it at once. The control
    /// > retains the action: use the control parameter and an owner
    /// > (``addAction(for:owner:_:)``) rather than capturing the control or its view controller, or
    /// > you make a cycle. For other deliveries, `once` and the async form, use the source
    /// > ``actions(for:)``.
    @discardableResult
    public func addAction(
      for events: UIControl.Event,
      _ action: @escaping @MainActor @Sendable (_ control: Self, _ event: UIEvent?) -> Void
    ) -> HandlerSubscription {
      if events.isEmpty { fatalError("UIControl.addAction(for:): the argument `events` must not be empty") }
      let store = ControlActionStore.of(self)
      store.registerTargets(on: self, for: events)
      return store.actions.addAction(for: events) { fire in
        MainActor.assumeIsolated {
          guard let control = fire.control as? Self else { return }
          action(control, fire.event)
        }
      }
    }

    /// Registers a closure that runs each time the control sends one of `events`, for as long as
    /// `owner` lives: the owner is held weakly and handed to the closure strong, so no
    /// `[weak self]` is needed.
    ///
    /// ```swift
    /// final class Screen: UIViewController {
    ///   let save = UIButton()
    ///   func bind() {
    ///     save.addAction(for: .touchUpInside, owner: self) { screen, button, _ in
    ///       button.isEnabled = false
    ///       screen.title = "Saved"
    ///     }
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - events: The control events; must not be empty.
    ///   - owner: Held weakly; the action ends when it is deallocated.
    ///   - action: Receives the owner, the control (typed as the class you called this on) and the
    ///     `UIEvent`.
    /// - Returns: A token that removes this one action; dropping it does not.
    ///
    /// > Important: Runs on the main actor, as ``addAction(for:_:)``; after the owner is gone the
    /// > action never runs and is released no later than the control's next action or registration.
    /// > The same registration as `actions(for:).onMainActor.addHandler(owner:_:)`.
    @discardableResult
    public func addAction<Owner: AnyObject & Sendable>(
      for events: UIControl.Event,
      owner: Owner,
      _ action: @escaping @MainActor @Sendable (_ owner: Owner, _ control: Self, _ event: UIEvent?) -> Void
    ) -> HandlerSubscription {
      if events.isEmpty { fatalError("UIControl.addAction(for:owner:): the argument `events` must not be empty") }
      let store = ControlActionStore.of(self)
      store.registerTargets(on: self, for: events)
      return store.actions.actions(for: events).addHandler(owner: owner) { owner, fire in
        MainActor.assumeIsolated {
          guard let control = fire.control as? Self else { return }
          action(owner, control, fire.event)
        }
      }
    }

    /// Deprecated: use `actions(for:).addHandler(on:_:)`.
    @available(*, deprecated, message: "use actions(for:).addHandler(on:_:)")
    @discardableResult
    public func addAction(
      for events: UIControl.Event,
      on delivery: Delivery,
      _ action: @escaping @Sendable (_ control: Self, _ event: UIEvent?) -> Void
    ) -> HandlerSubscription {
      if events.isEmpty { fatalError("UIControl.addAction(for:on:): the argument `events` must not be empty") }
      let store = ControlActionStore.of(self)
      store.registerTargets(on: self, for: events)
      return store.actions.addAction(for: events, on: delivery) { fire in
        guard let control = fire.control as? Self else { return }
        action(control, fire.event)
      }
    }

    /// Deprecated: use `actions(for:).onMainActor.addHandler(_:)`.
    @available(*, deprecated, message: "use actions(for:).onMainActor.addHandler(_:)")
    @discardableResult
    public func addAction(
      for events: UIControl.Event,
      on delivery: MainActorDelivery,
      _ action: @escaping @MainActor @Sendable (_ control: Self, _ event: UIEvent?) -> Void
    ) -> HandlerSubscription {
      if events.isEmpty { fatalError("UIControl.addAction(for:on:): the argument `events` must not be empty") }
      let store = ControlActionStore.of(self)
      store.registerTargets(on: self, for: events)
      return store.actions.actions(for: events).onMainActor.addHandler { fire in
        guard let control = fire.control as? Self else { return }
        action(control, fire.event)
      }
    }

    /// Removes `events` from every closure action of this control; an action left with no event is
    /// removed.
    ///
    /// ```swift
    /// button.removeActions(for: .touchDown)
    /// ```
    ///
    /// - Parameter events: The events to remove.
    ///
    /// > Important: Touches only closure actions added with ``addAction(for:_:)`` and its variants;
    /// > targets added with `addTarget(_:action:for:)` are UIKit's to remove.
    public func removeActions(for events: UIControl.Event) {
      guard let store = Association.existingValue(of: self, as: ControlActionStore.self) else { return }
      store.actions.removeActions(for: events)
      store.unregisterUnusedTargets(on: self, for: events)
    }

    /// The number of live closure actions registered for any of `events`.
    ///
    /// ```swift
    /// print(button.actionCount(for: .touchUpInside))
    /// ```
    ///
    /// - Parameter events: The events to count.
    /// - Returns: The number of live matching closure actions.
    public func actionCount(for events: UIControl.Event) -> Int {
      Association.existingValue(of: self, as: ControlActionStore.self)?.actions.actionCount(for: events) ?? 0
    }

    /// Deprecated: the async form is the source's `values`: `actions(for:).values`, whose elements
    /// are ``ControlEvent``s. Kept so that `for await event in control.actions(for:)` still
    /// compiles; a call with no other context picks the source.
    @available(*, deprecated, message: "use actions(for:).values, whose elements carry the control and the UIEvent")
    @_disfavoredOverload
    public func actions(for events: UIControl.Event) -> AsyncStream<UIEvent?> {
      let (stream, continuation) = AsyncStream.makeStream(of: UIEvent?.self)
      let finisher = StreamFinisher(continuation)
      let subscription = addAction(for: events) { _, event in
        finisher.continuation.yield(event)
      }
      continuation.onTermination = { _ in subscription.cancel() }
      return stream
    }
  }
#endif
