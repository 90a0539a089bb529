// closurekit-bench: ClosureKit against its baselines, side by side, in one run.
// Usage: swift run -c release --package-path Benchmarks closurekit-bench [suite ...]

/// Every suite, in order. Each capability adds its suite here and in a file of its own.
let suites: [Suite] = [
  eventsSuite,
  guardSuite,
  guardRegistrationSuite,
  guardSendSuite,
  profileAddCancelSuite,
  observedWriteProfileSuite,
  profileSendSuite,
  observationSuite,
  timersSuite,
  timersLoadSuite,
  delegatesSuite,
  notificationsSuite,
  profileNotificationRegistrationSuite,
  networkSuite,
  asyncFormsSuite,
  asyncValuesSuite,
  guardAsyncSuite,
  guardXMLSuite,
  profileXMLEventsSuite,
  associatedSuite,
  associatedCostSuite,
  dialogsSuite,
]

let requested = Set(CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") })
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--memory" {
  memoryProbe(CommandLine.arguments[2])
} else if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--xml-peak" {
  await xmlPeakProbe(CommandLine.arguments[2], CommandLine.arguments[3])
} else if CommandLine.arguments.contains("--help") {
  print("closurekit-bench [suite ...]; suites: \(suites.map(\.name).joined(separator: ", "))")
} else {
  for suite in suites
  where requested.isEmpty
    ? !suite.name.hasPrefix("guard") && !suite.name.hasPrefix("profile") : requested.contains(suite.name)
  {
    print("\n### \(suite.name)")
    await suite.run()
  }
}
