// Standalone (no ClosureKit): what the test server does when many connections arrive at once, a
// Foundation `Thread` per connection, started from a Dispatch worker, whose first work is
// `(0..<65_536).map { UInt8(truncatingIfNeeded: $0) }` (the first use of runtime metadata caches
// that the Swift runtime initialises under `swift_once`: on Linux a priority-inheritance futex
// owned by a thread id cached in thread-local storage). Run by run.sh under ThreadSanitizer; a run
// that takes seconds instead of milliseconds is the stall, one that does not finish is the hang.
import Dispatch
import Foundation

let racers = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 60
let done = DispatchSemaphore(value: 0)
let start = ContinuousClock.now
DispatchQueue.global().async {
  for _ in 0..<racers {
    let thread = Thread {
      let block = (0..<65_536).map { UInt8(truncatingIfNeeded: $0) }
      precondition(block.count == 65_536)
      done.signal()
    }
    thread.start()
  }
}
for _ in 0..<racers { done.wait() }
print("finished in \(ContinuousClock.now - start)")
