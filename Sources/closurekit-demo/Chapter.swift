/// One chapter of the guided tour.
struct Chapter: Sendable {
  /// The name typed on the command line: `swift run closurekit-demo events`.
  let name: String
  /// One line for `--help`.
  let summary: String
  /// Prints the chapter. Runs on the main actor; may await.
  let run: @MainActor @Sendable () async throws -> Void
}

/// An object of the tour that says when it is deallocated, to show that binding a closure with
/// `owner:` does not keep it alive. The chapters give it their methods (`CounterScreen`,
/// `StopwatchModel`, `FileBrowser`).
final class DemoObject: Sendable {
  let name: String
  init(name: String) { self.name = name }
  deinit { print("  \(name) deallocated") }
}

/// Every chapter, in tour order. Each capability adds its chapter here and in a file of its own.
let allChapters: [Chapter] = [
  .events,
  .observation,
  .timers,
  .delegates,
  .network,
  .configuration,
  .dialogs,
]
