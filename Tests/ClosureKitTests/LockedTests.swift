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

/// The lock of every module (`Platform/Locked.swift`): mutual exclusion, the sleeping slow path and
/// its wake-up, and release when the body throws. Run under ThreadSanitizer in CI, which checks
/// that the lock's word is seen as synchronisation (a plain `Int` guarded by it would be reported).
@Suite struct LockedTests {
  /// A non-atomic counter, guarded only by the lock under test.
  final class Unguarded: @unchecked Sendable {
    // @unchecked Sendable: `count` is read and written only inside `lock.withLock`.
    var count = 0
  }

  @Test func threadsIncrementingUnderTheLockLoseNoIncrement() async {
    // Not `Locked(())`: ThreadSanitizer reports a zero-sized value's accesses as 8-byte ones, at
    // the address of the lock word, which every thread reads before it holds the lock (a false
    // report, 10 runs in 15 of a reduced program; none with an `Int` in 15).
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
    #expect(await done.wait(timeout: .seconds(60)))
    #expect(lock.withLock { _ in unguarded.count } == threads * increments)
    #expect(lock.withLock { $0 } == threads * increments)
    #expect(lock.word.load(ordering: .relaxed) == 0)
  }

  @Test func aThreadThatFindsTheLockHeldSleepsAndIsWokenByTheRelease() async {
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
    #expect(await holderInside.wait(timeout: .seconds(60)))
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
    // The waiter marks the word "held with sleepers" (2) once it stops spinning and goes to sleep.
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while lock.word.load(ordering: .acquiring) != 2, clock.now < deadline { sched_yield() }
    #expect(lock.word.load(ordering: .acquiring) == 2)
    release.signal()
    #expect(await waiterDone.wait(timeout: .seconds(60)))
    #expect(lock.withLock { $0 } == 11)
    #expect(lock.word.load(ordering: .relaxed) == 0)
  }

  @Test func sleepersOfTwoLocksInOneBucketAreBothWoken() async {
    // Two locks that share a bucket (among 65 locks, two must): a release of either wakes both
    // sleepers, and the one whose lock is still held sleeps again until its own release.
    var pool: [Locked<Int>] = []
    var pair: (Locked<Int>, Locked<Int>)?
    while pair == nil {
      let lock = Locked(0)
      let bucket = ParkingLot.bucketIndex(for: lock)
      if let twin = pool.first(where: { ParkingLot.bucketIndex(for: $0) == bucket }) { pair = (twin, lock) }
      pool.append(lock)
    }
    let locks = [pair!.0, pair!.1]
    let holdersInside = Expectation(count: 2)
    let releases = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    let waitersDone = [Expectation(), Expectation()]
    for (lock, release) in zip(locks, releases) {
      pthread_detach(
        startThread {
          lock.withLock { value in
            holdersInside.fulfill()
            _ = release.wait(timeout: .now() + 60)
            value += 1
          }
        }
      )
    }
    #expect(await holdersInside.wait(timeout: .seconds(60)))
    for (lock, done) in zip(locks, waitersDone) {
      pthread_detach(
        startThread {
          lock.withLock { $0 += 1 }
          done.fulfill()
        }
      )
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while locks.contains(where: { $0.word.load(ordering: .acquiring) != 2 }), clock.now < deadline { sched_yield() }
    #expect(locks.allSatisfy { $0.word.load(ordering: .acquiring) == 2 })
    // The first release wakes both sleepers: the first lock's takes it, the second's finds its
    // lock still held and sleeps again, until the second release.
    releases[0].signal()
    #expect(await waitersDone[0].wait(timeout: .seconds(60)))
    #expect(!waitersDone[1].isFulfilled)
    #expect(locks[0].withLock { $0 } == 2)
    releases[1].signal()
    #expect(await waitersDone[1].wait(timeout: .seconds(60)))
    #expect(locks[1].withLock { $0 } == 2)
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
    #expect(lock.word.load(ordering: .relaxed) == 0)
    #expect(lock.withLock { $0 } == 1)
  }
}
