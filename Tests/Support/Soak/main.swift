// closurekit-soak: every source at once from several threads, with a seeded random mix, checked
// against a model after every step (issue 28). Scripts/soak.sh runs it from .ci/run, plain and
// under ThreadSanitizer.
//
//   closurekit-soak [--seconds N] [--threads N] [--seed S]
//
// Checks: no handler starts after its cancel returned, its owner died or its bag ended; every live
// handler runs exactly once per send of its worker; a `once` handler at most once; delayed work
// runs once unless cancelled; dialogs answer and run at most one action; the two bound boxes
// settle; every capture is released; the process's descriptors do not grow and its threads stay
// bounded; nothing deadlocks (a watchdog with a deadline). A failure prints its seed; `--seed`
// replays each thread's sequence of operations (the interleaving is the scheduler's).
import ClosureKit
import ClosureKitTesting
import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

struct Options {
  var seconds = 5.0
  var threads = 8
  var seed = UInt64.random(in: 1...UInt64.max)

  init(_ arguments: [String]) {
    var rest = arguments.dropFirst()
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else { Options.usage("\(flag) needs a value") }
      switch flag {
      case "--seconds":
        guard let number = Double(value), number > 0 else { Options.usage("--seconds takes a positive number") }
        seconds = number
      case "--threads":
        guard let count = Int(value), count > 0 else { Options.usage("--threads takes a positive count") }
        threads = count
      case "--seed":
        guard let number = UInt64(value) else { Options.usage("--seed takes an unsigned integer") }
        seed = number
      default: Options.usage("unknown option \(flag)")
      }
    }
  }

  static func usage(_ message: String) -> Never {
    print("closurekit-soak: \(message)\nusage: closurekit-soak [--seconds N] [--threads N] [--seed S]")
    exit(64)
  }
}

let options = Options(CommandLine.arguments)
print("soak: seed \(options.seed), \(options.threads) threads, \(options.seconds) s")
let counters = SoakCounters()
let events = (0..<4).map { _ in Event<Payload>() }
let extras = SoakExtras(counters: counters)

func stop(_ message: String) -> Never {
  print("soak FAILED (seed \(options.seed)): \(message)")
  print("replay: closurekit-soak --seed \(options.seed) --threads \(options.threads) --seconds \(options.seconds)")
  exit(1)
}

var generator = SeededGenerator(seed: options.seed)
let workers = (0..<options.threads).map { index in
  SoakWorker(index: index, seed: generator.next(), events: events, counters: counters, extras: extras)
}
let deadline = ContinuousClock.now + .milliseconds(Int(options.seconds * 1_000))
let done = DispatchGroup()
for worker in workers {
  DispatchQueue.global().async(group: done) {
    worker.run(until: deadline)
    worker.finish()
  }
}
// The census at half time, under load (Dispatch's and the timer scheduler's threads and
// descriptors exist by then), is what the end must not exceed.
let watchdog = DispatchTime.now() + options.seconds + 60
_ = done.wait(timeout: .now() + options.seconds / 2)
let before = ProcessCensus.take()
// The watchdog: a deadlock or a binding that never settles stops the run with the seed.
if done.wait(timeout: watchdog) == .timedOut {
  stop("the workers did not finish within 60 s of the deadline (deadlock?)")
}
if let failure = counters.failure { stop(failure) }
if let failure = extras.finish() { stop(failure) }
if extras.pendingDelays.wait(timeout: .now() + 30) == .timedOut {
  stop("delayed work that was not cancelled never ran")
}
if extras.openDialogs.wait(timeout: .now() + 30) == .timedOut { stop("a dialog never answered") }
if let failure = counters.failure { stop(failure) }
// A send sweeps the handlers whose owner died; then every capture must be released.
for event in events { event.send(Payload(worker: -1, sequence: 0)) }
let made = counters.capturesMade.load(ordering: .relaxed)
let released = counters.capturesReleased.load(ordering: .relaxed)
if made != released { stop("\(made - released) of \(made) captures were not released") }
if let before, let after = ProcessCensus.take() {
  if after.descriptors > before.descriptors { stop("descriptors grew: \(before) -> \(after)") }
  // Dispatch's pool grows and shrinks with load (up to 64 threads); more than that is ours.
  if after.threads > before.threads + 64 { stop("threads grew: \(before) -> \(after)") }
  print("soak: process at half time \(before), at the end \(after)")
}
print("soak: ok, \(counters.steps.load(ordering: .relaxed)) steps, \(made) captures made and released")
