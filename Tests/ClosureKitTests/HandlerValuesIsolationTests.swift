import ClosureKitTestSupport
import Dispatch
import Testing

@testable import ClosureKit

/// Counts the jobs enqueued on it and runs them on a serial queue: as a task's executor
/// preference, it runs what the task runs off any actor.
///
/// `@unchecked Sendable`: its only state is a `Locked` counter and an immutable queue.
final class CountingTaskExecutor: TaskExecutor, @unchecked Sendable {
  let jobs = Locked(0)
  let queue = DispatchQueue(label: "CountingTaskExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    jobs.withLock { $0 += 1 }
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  var count: Int { jobs.withLock { $0 } }
}

/// Runs an actor's jobs on a serial queue of its own.
///
/// `@unchecked Sendable`: its only state is an immutable queue.
final class QueueSerialExecutor: SerialExecutor, @unchecked Sendable {
  let queue = DispatchQueue(label: "QueueSerialExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}

/// An actor on an executor of its own, where the consumer waits.
actor IsolatedConsumer {
  let executor = QueueSerialExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// Waits for `next(isolation:)` on this actor; returns its value and the jobs that ran off the
  /// actor (on the task's executor) meanwhile.
  func awaitNext(_ values: HandlerValues<Int>, offActor: CountingTaskExecutor) async -> (Int?, Int) {
    var iterator = values.makeAsyncIterator()
    let before = offActor.count
    let value = await iterator.next(isolation: self)
    return (value, offActor.count - before)
  }

  /// The same wait on a bare continuation, isolated to this actor, resumed by the test.
  func awaitContinuation(_ slot: Locked<UnsafeContinuation<Int?, Never>?>, offActor: CountingTaskExecutor) async -> (
    Int?, Int
  ) {
    let before = offActor.count
    let value = await withUnsafeContinuation(isolation: self) { continuation in
      slot.withLock { $0 = continuation }
    }
    return (value, offActor.count - before)
  }
}

/// Where a waiting `next(isolation:)` runs: on the caller's actor.
@Suite struct HandlerValuesIsolationTests {
  /// The waiting `next` costs the task's executor no more jobs than the bare continuation it
  /// stands for; it used to cost one more: its wait ran in a nonisolated closure, so the consumer
  /// left the actor to queue itself, was resumed off it and hopped back.
  @Test func aWaitingNextIsResumedOntoTheCallersActor() async {
    let offActor = CountingTaskExecutor()
    let consumer = IsolatedConsumer()

    let slot = Locked<UnsafeContinuation<Int?, Never>?>(nil)
    let bare = Task(executorPreference: offActor) { await consumer.awaitContinuation(slot, offActor: offActor) }
    #expect(await eventually { slot.withLock { $0 != nil } })
    slot.withLock { $0 }?.resume(returning: 1)
    let (bareValue, bareJobs) = await bare.value

    let event = Event<Int>()
    let values = event.values
    let waiting = Task(executorPreference: offActor) { await consumer.awaitNext(values, offActor: offActor) }
    #expect(await eventually { waitingConsumers(values) == 1 })
    event.send(1)
    let (value, jobs) = await waiting.value

    #expect(bareValue == 1)
    #expect(value == 1)
    #expect(jobs <= bareJobs)
  }
}
