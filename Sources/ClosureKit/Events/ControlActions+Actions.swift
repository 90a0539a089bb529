extension ControlActions {
  /// The actions of a set of kinds, as a ``HandlerSource``: registers for every kind in `kinds`.
  ///
  /// ```swift
  /// final class Form: Sendable { func submit() {} }
  /// let form = Form()
  /// let controls = ControlActions<ButtonEvent, Void>()
  /// controls.actions(for: .touchUpInside).addHandler(owner: form) { form, _ in form.submit() }
  /// controls.actions(for: .touchDown).once { print("first touch") }
  /// ```
  ///
  /// - Parameter kinds: The kinds that fire the actions registered through the result; must not be
  ///   empty.
  /// - Returns: A source whose `addHandler`, `once` and ``HandlerSource/onMainActor`` register
  ///   actions for `kinds`.
  ///
  /// > Important: An action runs once per matching ``sendActions(for:with:)``, never twice for one
  /// > send, with the rules of ``HandlerSource``. An empty `kinds` is a precondition failure.
  @inlinable
  public func actions(for kinds: Kind) -> Actions {
    actions(for: kinds, function: "actions(for:)")
  }

  /// ``actions(for:)``, naming `function` in the precondition message.
  @inlinable
  func actions(for kinds: Kind, function: StaticString) -> Actions {
    if kinds.isEmpty { failPrecondition("ControlActions.\(function): the argument `kinds` must not be empty") }
    return Actions(controls: self, kinds: kinds)
  }

  /// The actions of a set of kinds of a ``ControlActions``: a ``HandlerSource`` from
  /// ``ControlActions/actions(for:)``.
  ///
  /// ```swift
  /// let controls = ControlActions<ButtonEvent, String>()
  /// let taps = controls.actions(for: .touchUpInside)
  /// taps.addHandler { name in print("tapped", name) }
  /// ```
  ///
  /// > Important: Holds the action table strongly; registrations follow the rules of
  /// > ``HandlerSource``, fired by ``ControlActions/sendActions(for:with:)``.
  public struct Actions: ListBackedHandlerSource {
    /// The action table.
    @usableFromInline let controls: ControlActions
    /// The kinds an action registered here fires for; never empty.
    @usableFromInline let kinds: Kind

    @inlinable
    init(controls: ControlActions, kinds: Kind) {
      self.controls = controls
      self.kinds = kinds
    }

    /// The action table's list, where `register` adds each action.
    @inlinable var list: HandlerList<Payload, Kind> { controls.list }
    /// The tag of every registration: the kinds it fires for.
    @inlinable var tag: Kind { kinds }
  }
}
