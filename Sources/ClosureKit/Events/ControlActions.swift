/// The UIControl model without UIKit: actions registered for a set of control kinds (events),
/// fired by kind, removable by kind or one by one.
///
/// ```swift
/// struct ButtonEvent: OptionSet, Sendable {
///   let rawValue: Int
///   static let touchDown = ButtonEvent(rawValue: 1 << 0)
///   static let touchUpInside = ButtonEvent(rawValue: 1 << 1)
/// }
/// let actions = ControlActions<ButtonEvent, String>()
/// actions.addAction(for: [.touchDown, .touchUpInside]) { name in print("touched", name) }
/// actions.sendActions(for: .touchUpInside, with: "OK")   // prints "touched OK" once
/// ```
///
/// For the other registrations (an `owner:`, `once`, the main-actor view), select the kinds with
/// ``actions(for:)``, a ``HandlerSource``:
///
/// ```swift
/// let actions = ControlActions<ButtonEvent, String>()
/// actions.actions(for: .touchUpInside).once { name in print("first tap on", name) }
/// ```
///
/// > Important: Same threading, re-entrancy and lifetime rules as ``Event``: actions run outside
/// > any lock, in registration order, with the delivery chosen at registration.
public final class ControlActions<Kind: OptionSet & Sendable, Payload: Sendable>: Sendable
where Kind.Element == Kind {
  @usableFromInline let list = HandlerList<Payload, Kind>()

  /// Creates an empty action table.
  ///
  /// ```swift
  /// let actions = ControlActions<ButtonEvent, Void>()
  /// ```
  public init() {}

  deinit {
    list.close()
  }

  /// Registers an action for every kind in `kinds`.
  ///
  /// ```swift
  /// actions.addAction(for: .touchUpInside) { print("tapped", $0) }
  /// ```
  ///
  /// - Parameters:
  ///   - kinds: The kinds that fire the action; must not be empty.
  ///   - delivery: Where the action runs. Defaults to ``Delivery/immediate``.
  ///   - file: The `#fileID` of the call, recorded only while `HandlerDiagnostics` are on.
  ///   - line: The `#line` of the call, recorded likewise.
  ///   - action: Receives the payload of each matching send.
  /// - Returns: A token that removes this one action; dropping it does not.
  ///
  /// > Important: An action runs once per matching ``sendActions(for:with:)``, never twice for
  /// > one send. An empty `kinds` is a precondition failure. The same as
  /// > `actions(for: kinds).addHandler(on: delivery, action)`.
  @inlinable @discardableResult
  public func addAction(
    for kinds: Kind,
    on delivery: consuming Delivery = .immediate,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ action: @escaping @Sendable (Payload) -> Void
  ) -> HandlerSubscription {
    // The registry directly, not through `actions(for:)`: that path (the intermediate source, and
    // the first, struct-based primitive) measured 0.30x NotificationCenter for the guarded add +
    // remove row, this one 0.22x.
    if kinds.isEmpty { failPrecondition("ControlActions.addAction(for:on:_:): the argument `kinds` must not be empty") }
    return list.add(
      tag: kinds,
      once: false,
      delivery: delivery,
      site: RegistrationSite(fileID: file, line: line),
      SourceHandler<NoOwner, Payload>.plain(action)
    )
  }

  /// Runs the actions registered for any kind in `kind`, each once, in registration order.
  ///
  /// ```swift
  /// actions.sendActions(for: .touchUpInside, with: "OK")
  /// ```
  ///
  /// - Parameters:
  ///   - kind: The kind (or kinds) that happened.
  ///   - payload: Handed to each action.
  ///
  /// - Complexity: O(n) in the number of actions.
  @inlinable
  public func sendActions(for kind: Kind, with payload: Payload) {
    list.send(payload) { !$0.isDisjoint(with: kind) }
  }

  /// Removes `kinds` from every action; an action left with no kind is removed.
  ///
  /// ```swift
  /// actions.removeActions(for: .touchDown)   // actions for [.touchDown, .touchUpInside] stay for .touchUpInside
  /// ```
  ///
  /// - Parameter kinds: The kinds to remove.
  ///
  /// > Important: As `UIControl.removeTarget(_:action:for:)` does. To remove one action, cancel its
  /// > token.
  @inlinable
  public func removeActions(for kinds: Kind) {
    list.updateTags { registered in
      registered.subtract(kinds)
      return !registered.isEmpty
    }
  }

  /// The number of live actions registered for any kind in `kind`.
  ///
  /// ```swift
  /// print(actions.actionCount(for: .touchUpInside))
  /// ```
  ///
  /// - Parameter kind: The kinds to count.
  /// - Returns: The number of live matching actions.
  ///
  /// - Complexity: O(n).
  public func actionCount(for kind: Kind) -> Int {
    list.count { !$0.isDisjoint(with: kind) }
  }

  /// Where each live action was registered, in registration order; `nil` for an action registered
  /// while diagnostics were off. Public through `ClosureKitTesting`.
  package var liveRegistrationSites: [RegistrationSite?] {
    list.liveSites()
  }
}

extension ControlActions where Payload == Void {
  /// Runs the actions registered for `kind` on a payload-less control.
  ///
  /// ```swift
  /// let actions = ControlActions<ButtonEvent, Void>()
  /// actions.sendActions(for: .touchUpInside)
  /// ```
  ///
  /// - Parameter kind: The kind that happened.
  public func sendActions(for kind: Kind) {
    sendActions(for: kind, with: ())
  }
}
