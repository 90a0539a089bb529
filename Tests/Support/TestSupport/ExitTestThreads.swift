internal import ClosureKit
public import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A test that runs an exit test (`#expect(processExitsWith:)`): its tasks run on threads of
/// their own, never on the cooperative pool's.
///
/// Swift Testing's exit-test harness reads the child's output with blocking reads, each on the
/// thread of the task that awaits it, until the child exits (swift-testing pull request 1782,
/// "Add `FileHandle.read(until:)` to avoid blocking on slow exit test events", 2026-07, changes
/// that in later toolchains). On a 2-core machine the cooperative pool has two threads: one exit
/// test that observes its child's standard output held both for the child's whole life, and every
/// other test of the run stopped (a thread dump during a plain `swift test`: both pool threads in
/// `read` under `ExitTest.handlerForEntryPoint`; trivial tests took 8 to 17 s, and network tests
/// on CI missed their 30-second deadlines). Under this trait the harness's blocking reads hold
/// threads started for them instead.
///
/// ```swift
/// @Test(.exitTest) func aBadArgumentStopsTheProcess() async {
///   await #expect(processExitsWith: .failure) { ... }
/// }
/// ```
///
/// Exit tests also never run beside a network test (see ``Network``), and a heavy one
/// (`.heavyExitTest`) takes its turn among the heavy tests (see ``Heavy``) first.
public struct ExitTestThreads: TestTrait, TestScoping {
  let isHeavy: Bool

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
      try await Turns.shared.run(heavy: isHeavy, room: .childProcess, function)
    }
  }
}

extension Trait where Self == ExitTestThreads {
  /// Runs the test's tasks on threads of their own, apart from network tests; see
  /// ``ExitTestThreads``.
  public static var exitTest: Self { ExitTestThreads(isHeavy: false) }

  /// An exit test whose child keeps the processor busy: also one at a time among heavy tests.
  public static var heavyExitTest: Self { ExitTestThreads(isHeavy: true) }
}

/// Runs each job on a new thread of its own, which ends when the job returns (when its task
/// suspends or finishes). Slow, and never starved: for the few jobs of exit tests, which block.
final class ThreadPerJobExecutor: TaskExecutor {
  static let shared = ThreadPerJobExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    pthread_detach(startThread { job.runSynchronously(on: executor) })
  }
}
