/// The state behind every ``Dialog`` (``AlertDialog`` and ``ActionSheetDialog``): the buttons with their actions, the text
/// fields, the validation rule, the whole-dialog handler and the lifecycle closures, and the state
/// machine that makes the answer happen once and releases every closure afterwards.
final class DialogCore: Sendable {
  /// A closure that receives the result: a button's action, the builder form's handler.
  typealias ResultClosure = @isolated(any) @Sendable (DialogResult) -> Void
  /// A closure that receives a button index: the classic handler, will- and did-dismiss.
  typealias IndexClosure = @isolated(any) @Sendable (Int) -> Void
  /// A closure for a moment of the dialog's life: will- and did-present.
  typealias MomentClosure = @isolated(any) @Sendable () -> Void

  /// One button and its action.
  struct Button {
    /// What a presenter sees.
    var description: DialogButton
    /// Runs when this button is chosen; `nil` after the answer.
    var action: ResultClosure?
  }

  /// The whole-dialog handler, in one of its two forms.
  enum Handler {
    /// The builder form: receives the result.
    case result(ResultClosure)
    /// The classic form: receives the chosen index, or ``DialogResult/dismissedIndex``.
    case index(IndexClosure)
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
    /// Enables buttons; `nil` after the answer or when never set.
    var validation: (@Sendable ([String]) -> Bool)?
    /// The buttons `validation` governs.
    var validatedButtons = DialogRequest.ValidatedButtons.allButCancel
    /// The whole-dialog handler; `nil` after the answer or when never set.
    var handler: Handler?
    /// Runs before the presenter is asked; `nil` once taken.
    var willPresent: MomentClosure?
    /// Runs once the presenter reports the dialog on screen; `nil` once taken.
    var didPresent: MomentClosure?
    /// Runs with the chosen index after the choice's closures; `nil` once taken.
    var willDismiss: IndexClosure?
    /// Runs last, with the chosen index; `nil` once taken.
    var didDismiss: IndexClosure?
    /// From the start of the presentation (before will-present) until did-dismiss has run.
    var isPresented = false
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

  /// Whether the dialog is being presented: from before will-present until did-dismiss has run.
  var isPresented: Bool {
    state.withLock { $0.isPresented }
  }

  func addButton(
    _ title: String,
    role: DialogButton.Role,
    action: ResultClosure?,
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

  func setValidation(
    _ rule: @escaping @Sendable ([String]) -> Bool,
    for buttons: DialogRequest.ValidatedButtons,
    function: StaticString
  ) {
    setWhileBuilding(
      \.validation,
      to: rule,
      "\(function): the dialog was already presented; set the rule before presenting it"
    ) { $0.validatedButtons = buttons }
  }

  func setHandler(_ handler: Handler) {
    setWhileBuilding(
      \.handler,
      to: handler,
      "setHandler(_:): the dialog was already presented; set the handler before presenting it"
    )
  }

  func setLifecycle<Closure>(
    _ keyPath: WritableKeyPath<State, Closure?>,
    to closure: Closure,
    function: StaticString
  ) {
    setWhileBuilding(
      keyPath,
      to: closure,
      "\(function): the dialog was already presented; set its lifecycle closures before presenting it"
    )
  }

  /// Stores one closure of a dialog still being built, and releases the closure it replaces after
  /// unlocking: its captures may be the last references to objects whose deinit uses the dialog.
  private func setWhileBuilding<Closure>(
    _ keyPath: WritableKeyPath<State, Closure?>,
    to closure: Closure,
    _ message: @autoclosure () -> String,
    also update: (inout State) -> Void = { _ in }
  ) {
    let replaced = state.withLock { state in
      if state.phase != .building { failPrecondition(message()) }
      defer {
        state[keyPath: keyPath] = closure
        update(&state)
      }
      return state[keyPath: keyPath]
    }
    withExtendedLifetime(replaced) {}
  }

  /// Does what the classic initialisers share: adds `buttons` in index order, skipping those
  /// whose title is `nil`, and sets a whole-dialog handler that receives the chosen index, or
  /// ``DialogResult/dismissedIndex`` for a dismissal without a cancel button.
  func configureClassic(
    buttons: [(title: String?, role: DialogButton.Role)],
    handler: @escaping IndexClosure
  ) {
    for case let (title?, role) in buttons {
      _ = addButton(title, role: role, action: nil)
    }
    setHandler(.index(handler))
  }

  /// Presents the dialog and runs its closures, each on its own isolation; the loop that waits
  /// for the presenter's reports runs on the caller's.
  func present(
    on presenter: some DialogPresenter,
    isolation: isolated (any Actor)?
  ) async throws -> DialogResult {
    let reports = DialogReports()
    let (request, willPresent) = try state.withLock { state -> (DialogRequest, MomentClosure?) in
      guard state.phase == .building else { throw DialogError.alreadyPresented }
      if state.buttons.isEmpty { failPrecondition("present(on:): the dialog has no buttons; add at least one") }
      state.phase = .presenting
      state.isPresented = true
      defer { state.willPresent = nil }
      let request = DialogRequest(
        style: style,
        title: title,
        message: message,
        buttons: state.buttons.map(\.description),
        textFields: state.textFields,
        validatedButtons: state.validatedButtons,
        validation: state.validation,
        reports: reports
      )
      return (request, state.willPresent)
    }
    if let willPresent { await willPresent() }
    withExtendedLifetime(willPresent) {}
    // The presenter runs in a child task, so that its report that the dialog is on screen can run
    // the did-present closure here while it keeps the dialog shown. Cancelling this task cancels
    // the child: the presenter answers with a dismissal.
    async let presented: Void = reports.answer(await presenter.present(request))
    var answer: DialogAnswer
    repeat {
      switch await reports.next() {
      case .presented:
        await runDidPresent()
        continue
      case .answered(let given):
        answer = given
      }
      break
    } while true
    await presented
    await runDidPresent()  // a presenter that never reported it: did-present still comes first
    return await finish(answer, request: request)
  }

  /// Runs the did-present closure, the first time only.
  private func runDidPresent() async {
    let didPresent = state.withLock { state in
      defer { state.didPresent = nil }
      return state.didPresent
    }
    if let didPresent { await didPresent() }
    withExtendedLifetime(didPresent) {}
  }

  /// Resolves the answer, takes every closure out under the lock, then runs the chosen button's
  /// action, the whole-dialog handler, will-dismiss and did-dismiss outside it.
  private func finish(_ answer: DialogAnswer, request: DialogRequest) async -> DialogResult {
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
    // Every closure is taken out and released after unlocking, not only those that run: the
    // captures of the actions not chosen and of the rule may be the last references to objects
    // whose deinit uses the dialog.
    let taken = state.withLock { state in
      defer {
        state.phase = .answered
        for index in state.buttons.indices { state.buttons[index].action = nil }
        state.validation = nil
        state.handler = nil
        state.willDismiss = nil
        state.didDismiss = nil
      }
      return (
        actions: state.buttons.map(\.action), validation: state.validation, handler: state.handler,
        willDismiss: state.willDismiss, didDismiss: state.didDismiss
      )
    }
    let index = chosen ?? DialogResult.dismissedIndex
    if let action = chosen.flatMap({ taken.actions[$0] }) { await action(result) }
    switch taken.handler {
    case .result(let handler): await handler(result)
    case .index(let handler): await handler(index)
    case nil: break
    }
    if let willDismiss = taken.willDismiss { await willDismiss(index) }
    if let didDismiss = taken.didDismiss { await didDismiss(index) }
    state.withLock { $0.isPresented = false }
    withExtendedLifetime(taken) {}
    return result
  }

  /// Pads or cuts the presenter's values to one per text field.
  private static func normalized(_ values: [String], count: Int) -> [String] {
    if values.count == count { return values }
    return (0..<count).map { $0 < values.count ? values[$0] : "" }
  }
}

/// What a presenter reports to the dialog while it presents: the dialog is on screen (any number
/// of times; the dialog acts on the first), then the answer (once).
final class DialogReports: Sendable {
  /// One report.
  enum Report: Sendable {
    /// The presenter has shown the dialog.
    case presented
    /// The presenter has answered.
    case answered(DialogAnswer)
  }

  /// The reports not read yet and the reader waiting for one.
  private struct State {
    /// Reports in arrival order.
    var queue: [Report] = []
    /// Whether `.presented` was queued already.
    var hasPresented = false
    /// The reader suspended in ``next()``.
    var waiter: CheckedContinuation<Report, Never>?

    /// Hands `report` to the waiting reader (returned, to be resumed after unlocking), or
    /// queues it.
    mutating func enqueue(_ report: Report) -> CheckedContinuation<Report, Never>? {
      if let waiter {
        self.waiter = nil
        return waiter
      }
      queue.append(report)
      return nil
    }
  }

  private let state = Locked(State())

  /// Reports that the dialog is on screen; only the first call counts.
  func presented() {
    let waiter = state.withLock { state -> CheckedContinuation<Report, Never>? in
      guard !state.hasPresented else { return nil }
      state.hasPresented = true
      return state.enqueue(.presented)
    }
    waiter?.resume(returning: .presented)
  }

  /// Reports the answer.
  func answer(_ answer: DialogAnswer) {
    let waiter = state.withLock { $0.enqueue(.answered(answer)) }
    waiter?.resume(returning: .answered(answer))
  }

  /// The next report; waits for it, and ignores cancellation (the answer always comes).
  func next() async -> Report {
    await withCheckedContinuation { continuation in
      let report = state.withLock { state -> Report? in
        if state.queue.isEmpty {
          state.waiter = continuation
          return nil
        }
        return state.queue.removeFirst()
      }
      if let report { continuation.resume(returning: report) }
    }
  }
}
