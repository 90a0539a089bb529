import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

@testable import ClosureKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs `body` on a new operating-system thread (never the caller's, never a Dispatch worker) and
/// returns when it has finished.
func onNewThread(_ body: @escaping @Sendable () -> Void) {
  pthread_join(startThread(body), nil)
}

/// The blocking `onNewThread(_:)`, by a name an async caller can pick: for the main actor, whose
/// thread is not one of the cooperative pool's, when nothing may run on it until `body` is done.
func onNewThreadJoined(_ body: @escaping @Sendable () -> Void) {
  onNewThread(body)
}

/// Runs `body` on a new operating-system thread and resumes when it has finished, without blocking
/// the caller's thread: the async form, which an async test gets, so that no test blocks a thread of
/// the cooperative pool (two such threads on a 2-core machine serve every test of the run). A
/// thread that has not finished by ``crossThreadDeadline`` fails the test and is left behind.
func onNewThread(_ body: @escaping @Sendable () -> Void) async {
  let finished = Expectation()
  onOwnThread {
    body()
    finished.fulfill()
  }
  #expect(await finished.wait(timeout: crossThreadDeadline), "a thread of the test did not finish")
}

/// Runs `body` for each of `indices`, each on a thread of its own, and resumes when every one has
/// returned; `false` if they have not by ``crossThreadDeadline`` (with `progress`, which the body
/// advances: if it stopped advancing for that long). For CPU-bound stress loops: run as tasks, they
/// held the cooperative pool's threads (two on a 2-core machine) for seconds, and every other
/// test's tasks waited behind them.
func onOwnThreads(
  _ indices: some Sequence<Int>,
  progress: StressProgress? = nil,
  _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
  let all = Array(indices)
  guard !all.isEmpty else { return true }
  let done = Expectation(count: all.count)
  for index in all {
    onOwnThread {
      body(index)
      done.fulfill()
    }
  }
  if let progress { return await waitWhileProgressing(done, progress) }
  return await done.wait(timeout: crossThreadDeadline)
}

/// Resumes once every job enqueued on `queue` before the call has run, without blocking the
/// caller's thread (`queue.sync {}` would block a thread of the cooperative pool meanwhile).
func drain(_ queue: DispatchQueue) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    queue.async { done.resume() }
  }
}

/// Runs `body` on `queue` and resumes when it has run, without blocking the caller's thread.
func runAndWait(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    queue.async {
      body()
      done.resume()
    }
  }
}

/// Runs `body` on a new operating-system thread of its own and returns at once.
///
/// For a long stress loop. Not `DispatchQueue.global().async`: on Linux the global queues' worker
/// threads (as many as the cores) are also the threads of Swift concurrency's global executor, so
/// two such loops stopped every other test's tasks: a probe task in a full `swift test` run waited
/// 15 s to be resumed, and network tests on CI missed 30-second deadlines.
func onOwnThread(_ body: @escaping @Sendable () -> Void) {
  pthread_detach(startThread(body))
}

/// Rounds of a stress loop, counted as they finish, so that a wait for the loop tells a stall from a
/// slow machine.
final class StressProgress: Sendable {
  private let rounds = Atomic<Int>(0)

  /// Counts one finished round.
  func advance() { rounds.add(1, ordering: .relaxed) }

  /// The rounds finished so far.
  var value: Int { rounds.load(ordering: .relaxed) }
}

/// Waits for `done`; `false` only if `progress` did not advance during a whole
/// ``crossThreadDeadline`` before it was fulfilled: a deadlock or a livelock, not a slow machine.
/// A stress loop that waited for `done` from its start failed beside a second build of the package
/// (20,000 rounds of a two-way binding took over 30 s there; 300,000 timer rounds over 150 s).
func waitWhileProgressing(_ done: ClosureKitTesting.Expectation, _ progress: StressProgress) async -> Bool {
  var seen = progress.value
  while !(await done.wait(timeout: crossThreadDeadline)) {
    let now = progress.value
    if now == seen { return false }
    seen = now
  }
  return true
}

/// Runs `writer` on one new thread and `reader` over and over on another until `writer` returns;
/// `false` if the writer's rounds (counted by it with `progress.advance()`) stopped advancing for
/// ``crossThreadDeadline`` before both finished (a deadlock). A hung thread is left behind, so the
/// failure is reported instead of hanging the run.
func raceFinishes(
  writer: @escaping @Sendable (_ progress: StressProgress) -> Void,
  reader: @escaping @Sendable () -> Void
) async -> Bool {
  let progress = StressProgress()
  let done = Expectation(count: 2)
  let stop = Locked(false)
  pthread_detach(
    startThread {
      writer(progress)
      stop.withLock { $0 = true }
      done.fulfill()
    }
  )
  pthread_detach(
    startThread {
      while !stop.withLock({ $0 }) { reader() }
      done.fulfill()
    }
  )
  return await waitWhileProgressing(done, progress)
}

/// The longest a handler of a contention test holds a box's delivery (on a thread of the test's
/// own) while the test writes from elsewhere: a safety valve against a hang, not a deadline. The
/// test releases the hold; if the hold ended first, the test would see the wrong order, so it is
/// longer than a resumption of the test's task can take on a loaded machine (in a full
/// ThreadSanitizer run, 30 s was not always enough).
let handlerHold: DispatchTimeInterval = .seconds(120)

/// The rounds of a stress test: `rounds` in a normal build, a fiftieth of them (at least 1,000)
/// under ThreadSanitizer, where every memory access is instrumented (20 to 50 times slower) and the
/// full count would starve the tests running beside it on a 2-core machine past their deadlines.
/// The deadlock regressions they guard hang within a few thousand rounds in the normal build.
/// Under AddressSanitizer (2 to 3 times slower) a tenth: the full count took 27 s alone and passed
/// its 60 s deadline when run beside the rest of the suite.
func stressRounds(_ rounds: Int) -> Int {
  if isUnderThreadSanitizer { return max(1_000, rounds / 50) }
  if isUnderAddressSanitizer { return max(1_000, rounds / 10) }
  return rounds
}

/// Advances `clock` by `duration` on a Dispatch worker thread (so that a main-actor handler's hop
/// is not run early by the test's own thread), then waits for `done`; `false` if it is not
/// fulfilled by ``crossThreadDeadline``.
func advance(_ clock: ManualClock, by duration: Duration, thenWaitFor done: ClosureKitTesting.Expectation) async -> Bool
{
  DispatchQueue.global().async { clock.advance(by: duration) }
  return await done.wait(timeout: crossThreadDeadline)
}
