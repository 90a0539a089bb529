/// The dialogs a ``SwiftUIDialogPresenter`` holds: a pure value whose transitions return what to
/// resume and what to announce after the lock.
///
/// One dialog is shown at a time, in the order they were presented; each is answered exactly once
/// (by a button, a dismissal, or its presenting task's cancellation, whichever comes first).
package struct DialogQueueState<Waiter> {
  /// A dialog waiting for its answer.
  package struct Entry {
    package let presentation: SwiftUIDialogPresenter.Presentation
    package let waiter: Waiter
  }

  private(set) var entries: [Entry] = []
  /// Identifiers whose task was cancelled before the dialog was queued.
  private var cancelledEarly: Set<Int> = []
  private var nextID = 1

  package init() {}

  /// The dialog on screen, if any.
  package var current: SwiftUIDialogPresenter.Presentation? { entries.first?.presentation }

  /// A fresh identifier for a dialog about to be presented.
  package mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// Queues a dialog. Returns the waiter to resume at once (dismissed) if its task was cancelled
  /// first, and whether the dialog on screen changed.
  package mutating func enqueue(
    _ presentation: SwiftUIDialogPresenter.Presentation,
    waiter: Waiter
  ) -> (resumeDismissed: Waiter?, currentChanged: Bool) {
    defer { assert(verifyInvariants()) }
    if cancelledEarly.remove(presentation.id) != nil { return (waiter, false) }
    entries.append(Entry(presentation: presentation, waiter: waiter))
    return (nil, entries.count == 1)
  }

  /// Answers the dialog `id`. Returns the waiter to resume with the answer (nil if it was answered
  /// already), and whether the dialog on screen changed.
  package mutating func answer(_ id: Int) -> (waiter: Waiter?, currentChanged: Bool) {
    defer { assert(verifyInvariants()) }
    guard let index = entries.firstIndex(where: { $0.presentation.id == id }) else { return (nil, false) }
    let entry = entries.remove(at: index)
    return (entry.waiter, index == 0)
  }

  /// The task presenting `id` was cancelled: the dialog is dismissed, or, if it is not queued yet,
  /// remembered so that its `enqueue` answers at once.
  package mutating func cancel(_ id: Int) -> (waiter: Waiter?, currentChanged: Bool) {
    defer { assert(verifyInvariants()) }
    if entries.contains(where: { $0.presentation.id == id }) { return answer(id) }
    cancelledEarly.insert(id)
    return (nil, false)
  }

  /// Identifiers are unique and increasing in queue order.
  package func verifyInvariants() -> Bool {
    zip(entries, entries.dropFirst()).allSatisfy { $0.presentation.id < $1.presentation.id }
      && entries.allSatisfy { !cancelledEarly.contains($0.presentation.id) }
  }
}
