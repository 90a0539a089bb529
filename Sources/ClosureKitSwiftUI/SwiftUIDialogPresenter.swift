public import ClosureKit

/// A ``ClosureKit/DialogPresenter`` that a SwiftUI view shows with `.dialogs(_:)`: an
/// `AlertDialog` as SwiftUI's alert, an `ActionSheetDialog` as its confirmation dialog.
///
/// ```swift
/// let presenter = SwiftUIDialogPresenter()
/// // In a view: `.dialogs(presenter)`; then, from any code:
/// let alert = AlertDialog(title: "Delete?", cancelButtonTitle: "Keep", otherButtonTitles: "Delete") { index in
///   print("chose", index)
/// }
/// Task { try await alert.present(on: presenter) }  // shown by the view that has `.dialogs(presenter)`
/// ```
///
/// The same dialog runs with `UIAlertControllerPresenter` in UIKit, `TerminalPresenter` in a
/// terminal and `ScriptedPresenter` in tests. Dialogs are shown one at a time, in the order they
/// were presented; each is answered exactly once, by a button, by a dismissal (the view's
/// `isPresented` going false, or ``dismissCurrent()``), or by the cancellation of the task that
/// presents it, whichever comes first.
///
/// > Important: Thread-safe: present from any thread or actor. ``currentChanged`` sends on the
/// > thread whose call changed the dialog on screen; `.dialogs(_:)` reads it on the main actor.
public final class SwiftUIDialogPresenter: DialogPresenter {
  /// One dialog as the view shows it.
  public struct Presentation: Sendable, Identifiable, Hashable {
    /// Unique per presenter, increasing in presentation order.
    public let id: Int
    /// What to show.
    public let request: DialogRequest

    public static func == (lhs: Presentation, rhs: Presentation) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
  }

  private let state = Locked(DialogQueueState<CheckedContinuation<DialogAnswer, Never>>())

  /// Sends the dialog on screen each time it changes (`nil`: none).
  ///
  /// ```swift
  /// let presenter = SwiftUIDialogPresenter()
  /// presenter.currentChanged.addHandler { shown in print(shown?.request.title ?? "none") }
  /// ```
  public let currentChanged = Event<Presentation?>()

  /// Makes a presenter with nothing on screen.
  public init() {}

  /// The dialog on screen, if any.
  public var current: Presentation? {
    state.withLock { $0.current }
  }

  /// Shows `request` after the dialogs before it and returns its answer.
  ///
  /// > Important: Cancelling the calling task dismisses the dialog (answer `.dismissed`).
  public func present(_ request: DialogRequest) async -> DialogAnswer {
    let id = state.withLock { $0.makeID() }
    let presentation = Presentation(id: id, request: request)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let (dismissed, changed) = state.withLock { $0.enqueue(presentation, waiter: continuation) }
        dismissed?.resume(returning: .dismissed(textFieldValues: request.textFields.map { _ in "" }))
        if changed { currentChanged.send(current) }
      }
    } onCancel: {
      let (waiter, changed) = state.withLock { $0.cancel(id) }
      waiter?.resume(returning: .dismissed(textFieldValues: request.textFields.map { _ in "" }))
      if changed { currentChanged.send(current) }
    }
  }

  /// Answers `presentation`: `.button(index, textFieldValues:)` or `.dismissed(textFieldValues:)`.
  ///
  /// ```swift
  /// let presenter = SwiftUIDialogPresenter()
  /// if let shown = presenter.current {
  ///   presenter.answer(shown, with: .button(0, textFieldValues: []))
  /// }
  /// ```
  ///
  /// - Returns: `false` if it was answered already (each dialog is answered once).
  @discardableResult
  public func answer(_ presentation: Presentation, with answer: DialogAnswer) -> Bool {
    let (waiter, changed) = state.withLock { $0.answer(presentation.id) }
    guard let waiter else { return false }
    waiter.resume(returning: answer)
    if changed { currentChanged.send(current) }
    return true
  }

  /// Dismisses the dialog on screen, as a tap outside it or a swipe does.
  ///
  /// - Returns: `false` if none was on screen.
  @discardableResult
  public func dismissCurrent() -> Bool {
    guard let shown = current else { return false }
    return answer(shown, with: .dismissed(textFieldValues: shown.request.textFields.map { _ in "" }))
  }
}
