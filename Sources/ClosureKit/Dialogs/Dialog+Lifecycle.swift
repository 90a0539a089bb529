extension Dialog {
  /// Sets the whole-dialog handler of the builder form: it runs once with the result, after the
  /// chosen button's own action, whichever button was chosen or if the dialog was dismissed.
  ///
  /// ```swift
  /// let alert = AlertDialog(title: "Export")
  /// alert.addButton("PDF")
  /// alert.addButton("Cancel", role: .cancel)
  /// alert.setHandler { result in print("answered", result.index as Any, result.isDismissed) }
  /// ```
  ///
  /// - Parameter handler: Receives the result, as a button's action does.
  ///
  /// > Important: `handler` keeps the isolation of the place it is written: written on the main
  /// > actor (a `@MainActor` view controller), it is `@MainActor` and may call main-actor code;
  /// > written in a nonisolated context, it stays nonisolated. Set it before presenting; a second
  /// > call replaces the handler (as does the classic initialiser's). Released after the answer.
  public func setHandler(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (_ result: DialogResult) -> Void
  ) {
    core.setHandler(.result(handler))
  }

  /// Sets the closure that runs just before the dialog is handed to its presenter (BlocksKit's
  /// `willShowBlock`).
  ///
  /// ```swift
  /// alert.onWillPresent { print("about to show") }
  /// ```
  ///
  /// - Parameter body: Runs once per presentation, first of the lifecycle closures.
  ///
  /// > Important: Lifecycle order, each closure once: will-present, did-present, then (after the
  /// > chosen button's action and the whole-dialog handler) will-dismiss and did-dismiss. Every
  /// > presenter runs all four, also for a dismissal and a cancelled task. `body` keeps the
  /// > isolation of the place it is written. Set it before presenting; a second call replaces it.
  public func onWillPresent(@_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Void) {
    core.setLifecycle(\.willPresent, to: body, function: "onWillPresent(_:)")
  }

  /// Sets the closure that runs once the presenter reports the dialog on screen (BlocksKit's
  /// `didShowBlock`).
  ///
  /// ```swift
  /// alert.onDidPresent { print("shown") }
  /// ```
  ///
  /// - Parameter body: Runs once per presentation, after will-present.
  ///
  /// > Important: Runs when the presenter calls ``DialogRequest/reportPresented()``, while the
  /// > dialog is shown; with a presenter that never reports it, just before the chosen button's
  /// > action. `body` keeps the isolation of the place it is written. Set it before presenting.
  public func onDidPresent(@_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Void) {
    core.setLifecycle(\.didPresent, to: body, function: "onDidPresent(_:)")
  }

  /// Sets the closure that runs with the chosen index once the dialog is answered, after the
  /// button's action and the whole-dialog handler (BlocksKit's `willDismissBlock`).
  ///
  /// ```swift
  /// alert.onWillDismiss { index in print("closing with", index) }
  /// ```
  ///
  /// - Parameter body: Receives the chosen index, the cancel button's for a dismissal, or
  ///   ``DialogResult/dismissedIndex`` (`-1`) for a dismissal without a cancel button.
  ///
  /// > Important: Runs once, after the presenter has answered (every presenter here answers once
  /// > the dialog is off screen). `body` keeps the isolation of the place it is written. Set it
  /// > before presenting.
  public func onWillDismiss(@_inheritActorContext _ body: @escaping @isolated(any) @Sendable (_ index: Int) -> Void) {
    core.setLifecycle(\.willDismiss, to: body, function: "onWillDismiss(_:)")
  }

  /// Sets the closure that runs last, with the chosen index (BlocksKit's `didDismissBlock`).
  ///
  /// ```swift
  /// alert.onDidDismiss { index in print("closed with", index) }
  /// ```
  ///
  /// - Parameter body: Receives the same index as will-dismiss.
  ///
  /// > Important: Runs once, after will-dismiss and before ``present(on:isolation:)`` returns;
  /// > then every closure of the dialog is released. `body` keeps the isolation of the place it is
  /// > written. Set it before presenting.
  public func onDidDismiss(@_inheritActorContext _ body: @escaping @isolated(any) @Sendable (_ index: Int) -> Void) {
    core.setLifecycle(\.didDismiss, to: body, function: "onDidDismiss(_:)")
  }
}
