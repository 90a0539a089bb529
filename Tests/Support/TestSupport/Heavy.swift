public import Testing

/// A test that keeps the processor busy for a second or more: a stress loop on threads of its
/// own, a model run, a large document.
///
/// Heavy tests run one at a time, each after the one before it has returned; other tests run
/// beside them as before. Run together, the stress loops' threads outnumbered the two threads of
/// the cooperative pool (on a 2-core machine) eight to one, and every other test's tasks waited
/// for a turn. A test's deadlines start in its body, so the wait for its turn never counts
/// against them.
///
/// ```swift
/// @Test(.heavy) func manyThreadsAtOnce() async { ... }
/// ```
public struct Heavy: TestTrait, TestScoping {
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // Turns are taken heavy first, room second; a test with a room takes both in one scope.
    precondition(
      !test.traits.contains { $0 is Network || $0 is ExitTestThreads },
      "\(test.name): a network or exit test cannot also be .heavy; use .heavyExitTest")
    try await Turns.shared.run(heavy: true, room: nil, function)
  }
}

extension Trait where Self == Heavy {
  /// Runs the test after every other heavy test has returned; see ``Heavy``.
  public static var heavy: Self { Heavy() }
}

/// A suite or test that uses `URLSession`: it never runs while an exit test's child process
/// lives, nor an exit test while it runs.
///
/// FoundationNetworking's libcurl does not open its sockets close-on-exec
/// (`Scripts/repro/libcurl-cloexec`), so a child process started while a request is open inherits
/// its connection, and the server sees it open until the child exits: a network test's check that
/// its connections closed waited for another test's child. An exit test in a network suite is an
/// exit test only (``ExitTestThreads``).
///
/// ```swift
/// @Suite(.network) struct DownloadTests { ... }
/// ```
public struct Network: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    guard testCase != nil, !test.traits.contains(where: { $0 is ExitTestThreads }) else { return nil }
    return self
  }

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await Turns.shared.run(heavy: false, room: .network, function)
  }
}

extension Trait where Self == Network {
  /// Keeps the tests apart from exit tests' child processes; see ``Network``.
  public static var network: Self { Network() }
}
