/// One chapter of the guided tour.
struct Chapter: Sendable {
  /// The name typed on the command line: `swift run closurekit-demo events`.
  let name: String
  /// One line for `--help`.
  let summary: String
  /// Where the chapter's code is, from the package's root: `Sources/closurekit-demo/Chapter+Events.swift`.
  let source: String
  /// Prints the chapter. Runs on the main actor; may await.
  let run: @MainActor @Sendable () async throws -> Void

  /// A chapter whose code is in the file that makes it (`fileID`, `closurekit-demo/Chapter+….swift`).
  init(
    name: String,
    summary: String,
    fileID: String = #fileID,
    run: @escaping @MainActor @Sendable () async throws -> Void
  ) {
    self.name = name
    self.summary = summary
    // `#fileID` names the module `closurekit_demo`; the folder is `closurekit-demo`.
    self.source = "Sources/closurekit-demo/" + (fileID.split(separator: "/").last.map(String.init) ?? fileID)
    self.run = run
  }
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
