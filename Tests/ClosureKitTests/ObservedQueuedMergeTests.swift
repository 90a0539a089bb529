import Dispatch
import Synchronization
import Testing

@testable import ClosureKit

/// Writes queued for the delivering thread are merged into one change when they are for the same
/// observers (`ObservedState.leave`); the values merged away are released after the box's lock,
/// like every value a write replaces (no user code runs under a lock of the core).
@Suite struct ObservedQueuedMergeTests {
  /// A value whose deinit reads its box, merged away: before, its last references went under the
  /// lock, and the read re-locked it (a trap with the re-lock's message in debug builds, a deadlock
  /// in release). In a child process, so that the old behaviour fails the test instead of
  /// stopping the run.
  @Test func aValueMergedAwayIsReleasedAfterTheLock() async {
    await #expect(processExitsWith: .success) {
      let deinitReads = Self.mergeAValueWhoseDeinitReadsTheBox()
      precondition(deinitReads == 1, "the merged value's deinit ran \(deinitReads) times")
    }
  }

  /// Thread A writes 1 and holds in its post callback; meanwhile another thread writes 2 (whose
  /// payload's deinit reads the box) and 3, both queued for A; when A goes on, it merges them
  /// into 1 → 3, and 2 is released. Returns how many times that deinit ran.
  static func mergeAValueWhoseDeinitReadsTheBox() -> Int {
    let box = Observed(Payload(number: 0, probe: nil))
    let deinitReads = Atomic<Int>(0)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let firstDone = DispatchSemaphore(value: 0)
    let seen = Locked<[Int]>([])
    let token = box.observe(options: [.new]) { change in
      let number = change.newValue!.number
      seen.withLock { $0.append(number) }
      if number == 1 {
        holding.signal()
        precondition(release.wait(timeout: .now() + 30) == .success, "the test did not release the writer")
      }
    }
    DispatchQueue.global().async {
      box.value = Payload(number: 1, probe: nil)
      firstDone.signal()
    }
    precondition(holding.wait(timeout: .now() + 30) == .success, "the first write was not delivered")
    box.value = Payload(
      number: 2,
      probe: Probe {
        _ = box.value.number  // takes the box's lock: not already held by this thread
        deinitReads.add(1, ordering: .relaxed)
      })
    box.value = Payload(number: 3, probe: nil)
    release.signal()
    precondition(firstDone.wait(timeout: .now() + 30) == .success, "the writer did not finish")
    token.cancel()
    precondition(seen.withLock { $0 } == [1, 3], "merged writes: \(seen.withLock { $0 })")
    return deinitReads.load(ordering: .relaxed)
  }

  struct Payload: Sendable {
    let number: Int
    let probe: Probe?
  }

  final class Probe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }
}
