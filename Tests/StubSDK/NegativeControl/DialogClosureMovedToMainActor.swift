// Negative control for Scripts/typecheck-uikit.sh: this file must NOT type-check. If it ever does,
// a dialog closure written off the main actor has been silently made `@MainActor` (the trap of an
// overload that prefers a `@MainActor` parameter): dialog closures keep the isolation of the
// place they are written.
// expected-error: call to main actor-isolated global function 'refreshScreen()' in a synchronous nonisolated context
#if canImport(UIKit)
  import ClosureKit

  @MainActor func refreshScreen() {}

  // Wrong: this function is not isolated, so the closure is not either.
  func negativeControlDialog() -> AlertDialog {
    let alert = AlertDialog(title: "T")
    alert.addButton("OK") { _ in refreshScreen() }
    return alert
  }
#endif
