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
    /// > (`events(for:).onMainActor.addHandler(owner:_:)`, see ``events(for:)``) rather than
    /// > capturing the control or its view controller, or you make a cycle.
    @discardableResult
    public func addAction(
      for events: UIControl.Event,
      _ action: @escaping @MainActor @Sendable (_ control: Self, _ event: UIEvent?) -> Void
    ) -> Subscription {
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

    /// Deprecated: use `events(for:).onMainActor.addHandler(owner:_:)`.
    @available(*, deprecated, message: "use events(for:).onMainActor.addHandler(owner:_:)")
    @discardableResult
    public func addAction<Owner: AnyObject & Sendable>(
      for events: UIControl.Event,
      owner: Owner,
      _ action: @escaping @MainActor @Sendable (_ owner: Owner, _ control: Self, _ event: UIEvent?) -> Void
    ) -> Subscription {
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

    /// Deprecated: use `events(for:).addHandler(on:_:)`.
    @available(*, deprecated, message: "use events(for:).addHandler(on:_:)")
    @discardableResult
    public func addAction(
      for events: UIControl.Event,
      on delivery: Delivery,
      _ action: @escaping @Sendable (_ control: Self, _ event: UIEvent?) -> Void
    ) -> Subscription {
      if events.isEmpty { fatalError("UIControl.addAction(for:on:): the argument `events` must not be empty") }
      let store = ControlActionStore.of(self)
      store.registerTargets(on: self, for: events)
      return store.actions.addAction(for: events, on: delivery) { fire in
        guard let control = fire.control as? Self else { return }
        action(control, fire.event)
      }
    }

    /// Deprecated: use `events(for:).onMainActor.addHandler(_:)`.
    @available(*, deprecated, message: "use events(for:).onMainActor.addHandler(_:)")
    @discardableResult
    public func addAction(
      for events: UIControl.Event,
      on delivery: MainActorDelivery,
      _ action: @escaping @MainActor @Sendable (_ control: Self, _ event: UIEvent?) -> Void
    ) -> Subscription {
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

    /// The events UIKit sends for `events`, as an asynchronous sequence of `UIEvent`s.
    ///
    /// ```swift
    /// for await _ in button.actions(for: .touchUpInside) {
    ///   await refresh()
    /// }
    /// ```
    ///
    /// - Parameter events: The control events; must not be empty.
    /// - Returns: A stream that ends when the control is deallocated; ending the iteration (or
    ///   cancelling its task) removes the action.
    ///
    /// > Important: Unbounded buffer: events sent while the loop body is busy are kept, in order.
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
