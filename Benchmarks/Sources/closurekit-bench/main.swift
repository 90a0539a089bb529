// closurekit-bench: ClosureKit against its baselines, side by side, in one run.
// Usage: swift run -c release --package-path Benchmarks closurekit-bench [suite ...]

/// Every suite, in order. Each capability adds its suite here and in a file of its own.
let suites: [Suite] = [
  eventsSuite,
  observationSuite,
  timersSuite,
  delegatesSuite,
  networkSuite,
  associatedSuite,
  dialogsSuite,
]

let requested = Set(CommandLine.arguments.dropFirst())
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--memory" {
  memoryProbe(CommandLine.arguments[2])
} else if requested.contains("--help") {
  print("closurekit-bench [suite ...]; suites: \(suites.map(\.name).joined(separator: ", "))")
} else {
  for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    print("\n### \(suite.name)")
    await suite.run()
  }
}
