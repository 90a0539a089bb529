import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch

/// Runs `body` from its deinit: a capture that calls back into the library when it is released,
/// to prove the library releases it outside its locks.
final class CallsOnDeinit: Sendable {
  private let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  deinit { body() }
}

/// Runs a task's jobs on Dispatch worker threads instead of the cooperative pool, so that async
/// work which might deadlock blocks a Dispatch worker and a test's deadline still expires.
final class DispatchTaskExecutor: TaskExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// An owner whose deinit cancels its own token.
final class CancellingOwner: Sendable {
  let token = Slot<HandlerSubscription>()
  deinit { token.value?.cancel() }
}

/// Races owners dying on two threads (each registers an owner-bound handler with `register` and
/// drops the owner at once, so its deinit cancels the token) against `churn` on a third, which
/// makes the source sweep dead owners or check tokens. Returns whether all three finished before
/// the deadline: a source that releases an owner's last reference under its lock deadlocks here.
func ownersDieWhileTheSourceSweeps(
  rounds: Int,
  register: @escaping @Sendable (CancellingOwner) -> HandlerSubscription,
  churn: @escaping @Sendable () -> Void
) async -> Bool {
  let finished = Expectation(count: 3)
  let progress = StressProgress()
  for _ in 0..<2 {
    onOwnThread {
      for _ in 0..<rounds {
        let owner = CancellingOwner()
        owner.token.value = register(owner)
        progress.advance()
      }
      finished.fulfill()
    }
  }
  onOwnThread {
    for _ in 0..<rounds {
      churn()
      progress.advance()
    }
    finished.fulfill()
  }
  return await waitWhileProgressing(finished, progress)
}
