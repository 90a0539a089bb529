import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

@testable import ClosureKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The lock of every module (`Platform/PThreads.swift`): mutual exclusion, a waiter woken by the
/// release, and release when the body throws. Run under ThreadSanitizer in CI, which checks that
/// the lock is seen as synchronisation (a plain `Int` guarded by it would be reported).
@Suite struct LockedTests {
  /// A non-atomic counter, guarded only by the lock under test.
  final class Unguarded: @unchecked Sendable {
    // @unchecked Sendable: `count` is read and written only inside `lock.withLock`.
    var count = 0
  }

  @Test func threadsIncrementingUnderTheLockLoseNoIncrement() async {
    let lock = Locked(0)
    let unguarded = Unguarded()
    let threads = 4
    let increments = stressRounds(200_000)
    let done = Expectation(count: threads)
    for _ in 0..<threads {
      pthread_detach(
        startThread {
          for _ in 0..<increments {
            lock.withLock { value in
              value += 1
              unguarded.count += 1
            }
          }
          done.fulfill()
        }
      )
    }
    // A lost wake-up leaves a thread asleep for ever: the deadline reports it.
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(lock.withLock { _ in unguarded.count } == threads * increments)
    #expect(lock.withLock { $0 } == threads * increments)
  }

  @Test func aThreadThatFindsTheLockHeldWaitsUntilTheRelease() async {
    let lock = Locked(0)
    let holderInside = Expectation()
    let release = DispatchSemaphore(value: 0)
    let waiterDone = Expectation()
    // The holder takes the lock and keeps it until the waiter is asleep.
    pthread_detach(
      startThread {
        lock.withLock { value in
          holderInside.fulfill()
          _ = release.wait(timeout: .now() + 60)
          value = 1
        }
      }
    )
    #expect(await holderInside.wait(timeout: crossThreadDeadline))
    pthread_detach(
      startThread {
        let seen = lock.withLock { value -> Int in
          value += 10
          return value
        }
        #expect(seen == 11)
        waiterDone.fulfill()
      }
    )
    // The waiter cannot take the lock while the holder keeps it.
    #expect(!waiterDone.isFulfilled)
    release.signal()
    #expect(await waiterDone.wait(timeout: crossThreadDeadline))
    #expect(lock.withLock { $0 } == 11)
  }

  struct Failure: Error {}

  @Test func aThrowingBodyReleasesTheLock() {
    let lock = Locked(0)
    #expect(throws: Failure.self) {
      try lock.withLock { value in
        value = 1
        throw Failure()
      }
    }
    #expect(lock.withLock { $0 } == 1)
  }

  #if DEBUG
    /// DESIGN.md, "Inside the core": the platform lock is error-checking in debug builds, so a
    /// re-lock by the holding thread stops the program with a message instead of hanging. (Release
    /// builds keep the plain mutex; the exit tests' release run leaves this one out.)
    @Test(.exitTest) func aReLockByTheHoldingThreadStopsTheProgramInDebugBuilds() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let lock = Locked(0)
        lock.withLock { _ in lock.withLock { $0 += 1 } }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #if !canImport(Darwin)
        #expect(message.contains("pthread_mutex_lock failed"))
        #expect(message.contains("EDEADLK"))
      #endif
    }
  #endif

  @Test func unlockingAndRelockingFromTheSameThreadStillWorks() {
    let lock = Locked(0)
    for _ in 0..<3 { lock.withLock { $0 += 1 } }
    #expect(lock.withLock { $0 } == 3)
  }
}
