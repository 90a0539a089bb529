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
