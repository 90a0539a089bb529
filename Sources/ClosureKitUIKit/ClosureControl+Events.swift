#if canImport(UIKit)
  public import ClosureKit
  public import UIKit

  /// One action a control sent: the control, typed as the class you asked, and the `UIEvent`
  /// UIKit passed. The payload of ``ClosureControl/actions(for:)``.
  ///
  /// ```swift
  /// slider.actions(for: .valueChanged).onMainActor.addHandler { sent in print(sent.control.value) }
  /// ```
  ///
  /// > Important: A value; the control and the event are main-actor objects, so use them on the
  /// > main actor (the main-actor view's handlers run there).
  public struct ControlEvent<Control: ClosureControl>: Sendable {
    /// The control that sent the action.
    public let control: Control
    /// The event UIKit passed, if any.
    public let event: UIEvent?
  }

  extension ClosureControl {
    /// The actions this control sends for `events`, as a ``ClosureKit/HandlerSource``:
    /// `addHandler`, `once`, the `owner:` variants and the main-actor view, as for every source.
    ///
    /// ```swift
    /// button.actions(for: .touchUpInside).onMainActor.addHandler(owner: self) { screen, sent in
    ///   screen.submit(from: sent.control)
    /// }
    /// button.actions(for: .touchUpInside).addHandler(on: .queue(uploads)) { _ in upload() }
    /// for await sent in button.actions(for: .primaryActionTriggered).values { print(sent.event as Any) }
    /// ```
    ///
    /// The same name, and the same kind of value, as ClosureKit's `ControlActions.actions(for:)`;
    /// its async form is the source's `values`.
    ///
    /// The plain form, `addAction(for:_:)`, stays the common spelling: its closure runs
    /// synchronously inside UIKit's `sendAction`. Through this source, the main-actor view's
    /// handlers run on the main actor after UIKit's action message has returned (as
    /// ``ClosureKit/Delivery/mainActor`` delivers); with the default ``ClosureKit/Delivery/immediate``
    /// a handler runs synchronously on the main thread but is not isolated, so it can only pass the
    /// control and the event on.
    ///
    /// - Parameter events: The control events; must not be empty.
    /// - Returns: A source whose handlers receive a ``ControlEvent`` for each action sent.
    ///
    /// > Important: Register on the main actor (a registration elsewhere stops the program). Every
    /// > registration ends when the control is deallocated; `removeActions(for:)` removes them as
    /// > it removes `addAction(for:_:)`'s. The control retains each handler: use the owner variant
    /// > rather than capturing the control or its view controller.
    public func actions(for events: UIControl.Event) -> ControlEventSource<Self> {
      if events.isEmpty { fatalError("UIControl.actions(for:): the argument `events` must not be empty") }
      return ControlEventSource(control: self, events: events)
    }

    /// Deprecated: the source is ``actions(for:)``, the name ClosureKit's `ControlActions` uses.
    @available(*, deprecated, renamed: "actions(for:)")
    public func events(for events: UIControl.Event) -> ControlEventSource<Self> {
      actions(for: events)
    }
  }

  /// The actions a control sends for a set of events, as a ``ClosureKit/HandlerSource``: from
  /// ``ClosureControl/actions(for:)``.
  ///
  /// ```swift
  /// let taps = button.actions(for: .touchUpInside)
  /// taps.onMainActor.once { sent in print("first tap", sent.event as Any) }
  /// ```
  ///
  /// > Important: Holds the control strongly; register through it on the main actor.
  public struct ControlEventSource<Control: ClosureControl>: HandlerSource {
    /// The control.
    let control: Control
    /// The events its handlers run for.
    let events: UIControl.Event

    /// Registers `handler` as an action of the control: the primitive behind `addHandler` and
    /// `once`.
    ///
    /// ```swift
    /// let token = button.actions(for: .touchUpInside).register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, ControlEvent<UIButton>>.plain { _ in })
    /// ```
    ///
    /// - Parameters:
    ///   - once: Whether the handler ends after its first call.
    ///   - delivery: Where the handler runs.
    ///   - file: The `#fileID` of the registration.
    ///   - line: The `#line` of the registration.
    ///   - handler: The closure, with its owner if it has one.
    /// - Returns: A token that removes this one action; dropping it does not.
    ///
    /// > Important: Call it on the main actor; the rules of ``ClosureControl/actions(for:)``.
    public func register<Owner: AnyObject & Sendable>(
      once: Bool,
      on delivery: consuming Delivery,
      file: StaticString,
      line: UInt,
      _ handler: consuming SourceHandler<Owner, ControlEvent<Control>>
    ) -> HandlerSubscription {
      let delivery = delivery
      let handler = handler
      let control = control
      let events = events
      return MainActor.assumeIsolated {
        let store = ControlActionStore.of(control)
        store.registerTargets(on: control, for: events)
        let mapped: SourceHandler<Owner, ControlFire>
        switch handler {
        case .plain(let handler):
          mapped = .plain { fire in
            guard let control = fire.control as? Control else { return }
            handler(ControlEvent(control: control, event: fire.event))
          }
        case .owned(let owner, let handler):
          mapped = .owned(owner) { owner, fire in
            guard let control = fire.control as? Control else { return }
            handler(owner, ControlEvent(control: control, event: fire.event))
          }
        }
        return store.actions.actions(for: events).register(once: once, on: delivery, file: file, line: line, mapped)
      }
    }
  }
#endif
