/// The state shared by ``Alert`` and ``ActionSheet``: the buttons with their actions, the text
/// fields, the validation rule and the whole-dialog handler, and the state machine that makes
/// the answer happen once and releases every closure afterwards.
final class DialogCore: Sendable {
  /// One button and its action.
  struct Button {
    /// What a presenter sees.
    var description: DialogButton
    /// Runs when this button is chosen; `nil` after the answer.
    var action: (@Sendable (DialogResult) -> Void)?
  }

  /// Where the dialog is in its one-time life.
  enum Phase {
    /// Being built: buttons and fields may be added.
    case building
    /// Handed to a presenter; waiting for the answer.
    case presenting
    /// Answered: every closure has been released.
    case answered
  }

  /// Everything mutable, under one lock.
  struct State {
    /// The current phase.
    var phase = Phase.building
    /// The buttons in index order.
    var buttons: [Button] = []
    /// The text fields in order.
    var textFields: [DialogTextField] = []
    /// Enables the non-cancel buttons; `nil` after the answer or when never set.
    var validation: (@Sendable ([String]) -> Bool)?
    /// The whole-dialog handler; `nil` after the answer or when never set.
    var handler: (@Sendable (DialogResult) -> Void)?
  }

  let style: DialogRequest.Style
  let title: String?
  let message: String?
  let state = Locked(State())

  init(style: DialogRequest.Style, title: String?, message: String?) {
    self.style = style
    self.title = title
    self.message = message
  }

  var buttons: [DialogButton] {
    state.withLock { $0.buttons.map(\.description) }
  }

  var textFields: [DialogTextField] {
    state.withLock { $0.textFields }
  }

  /// The index of the first button with `role`, if there is one.
  func firstButtonIndex(role: DialogButton.Role) -> Int? {
    state.withLock { state in state.buttons.firstIndex { $0.description.role == role } }
  }

  var isAnswered: Bool {
    state.withLock { $0.phase == .answered }
  }

  func addButton(
    _ title: String,
    role: DialogButton.Role,
    action: (@Sendable (DialogResult) -> Void)?,
    function: StaticString = "addButton(_:role:action:)"
  ) -> Int {
    state.withLock { state in
      if state.phase != .building {
        failPrecondition("\(function): the dialog was already presented; add buttons before presenting it")
      }
      if role == .cancel && state.buttons.contains(where: { $0.description.role == .cancel }) {
        failPrecondition("\(function): the argument `role` is .cancel, but the dialog already has a cancel button")
      }
      state.buttons.append(Button(description: DialogButton(title: title, role: role), action: action))
      return state.buttons.count - 1
    }
  }

  func addTextField(placeholder: String, isSecure: Bool) -> Int {
    state.withLock { state in
      if state.phase != .building {
        failPrecondition(
          "addTextField(placeholder:isSecure:): the dialog was already presented; add text fields before presenting it")
      }
      state.textFields.append(DialogTextField(placeholder: placeholder, isSecure: isSecure))
      return state.textFields.count - 1
    }
  }

  func setValidation(_ rule: @escaping @Sendable ([String]) -> Bool) {
    setWhileBuilding(
      \.validation,
      to: rule,
      "enableButtons(when:): the dialog was already presented; set the rule before presenting it"
    )
  }

  func setHandler(_ handler: @escaping @Sendable (DialogResult) -> Void) {
    setWhileBuilding(
      \.handler,
      to: handler,
      "setHandler(_:): the dialog was already presented; set the handler before presenting it"
    )
  }

  /// Stores one closure of a dialog still being built, and releases the closure it replaces after
  /// unlocking: its captures may be the last references to objects whose deinit uses the dialog.
  private func setWhileBuilding<Closure>(
    _ keyPath: WritableKeyPath<State, Closure?>,
    to closure: Closure,
    _ message: @autoclosure () -> String
  ) {
    let replaced = state.withLock { state in
      if state.phase != .building { failPrecondition(message()) }
      defer { state[keyPath: keyPath] = closure }
      return state[keyPath: keyPath]
    }
    withExtendedLifetime(replaced) {}
  }

  /// Does what the classic initialisers share: adds `buttons` in index order, skipping those
  /// whose title is `nil`, and sets a whole-dialog handler that receives the chosen index, or
  /// ``DialogResult/dismissedIndex`` for a dismissal without a cancel button.
  func configureClassic(
    buttons: [(title: String?, role: DialogButton.Role)],
    handler: @escaping @Sendable (_ index: Int) -> Void
  ) {
    for case let (title?, role) in buttons {
      _ = addButton(title, role: role, action: nil)
    }
    setHandler { result in handler(result.index ?? DialogResult.dismissedIndex) }
  }

  func present(on presenter: some DialogPresenter) async throws -> DialogResult {
    let request = try state.withLock { state -> DialogRequest in
      guard state.phase == .building else { throw DialogError.alreadyPresented }
      if state.buttons.isEmpty { failPrecondition("present(on:): the dialog has no buttons; add at least one") }
      state.phase = .presenting
      return DialogRequest(
        style: style,
        title: title,
        message: message,
        buttons: state.buttons.map(\.description),
        textFields: state.textFields,
        validation: state.validation
      )
    }
    let answer = await presenter.present(request)
    return finish(answer, request: request)
  }

  /// Resolves the answer, takes every closure out under the lock, then runs the chosen
  /// button's action and the whole-dialog handler outside it.
  private func finish(_ answer: DialogAnswer, request: DialogRequest) -> DialogResult {
    let values: [String]
    let chosen: Int?
    let isDismissed: Bool
    switch answer {
    case .button(let index, let textFieldValues):
      if !request.buttons.indices.contains(index) {
        failPrecondition(
          "DialogPresenter answered with button index \(index), but the dialog has \(request.buttons.count) buttons")
      }
      if !request.isButtonEnabled(at: index, textFieldValues: textFieldValues) {
        failPrecondition("DialogPresenter answered with button index \(index), which is disabled for the text typed")
      }
      (values, chosen, isDismissed) = (textFieldValues, index, false)
    case .dismissed(let textFieldValues):
      (values, chosen, isDismissed) = (textFieldValues, request.cancelButtonIndex, true)
    }
    let result = DialogResult(
      index: chosen,
      title: chosen.map { request.buttons[$0].title },
      textFieldValues: Self.normalized(values, count: request.textFields.count),
      isDismissed: isDismissed
    )
    // Every closure is taken out and released after unlocking, not only the two that run: the
    // captures of the actions not chosen and of the rule may be the last references to objects
    // whose deinit uses the dialog.
    let taken = state.withLock { state in
      defer {
        state.phase = .answered
        for index in state.buttons.indices { state.buttons[index].action = nil }
        state.validation = nil
        state.handler = nil
      }
      return (actions: state.buttons.map(\.action), validation: state.validation, handler: state.handler)
    }
    chosen.flatMap { taken.actions[$0] }?(result)
    taken.handler?(result)
    withExtendedLifetime(taken) {}
    return result
  }

  /// Pads or cuts the presenter's values to one per text field.
  private static func normalized(_ values: [String], count: Int) -> [String] {
    if values.count == count { return values }
    return (0..<count).map { $0 < values.count ? values[$0] : "" }
  }
}
