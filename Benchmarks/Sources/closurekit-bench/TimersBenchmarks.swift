import ClosureKit
import Dispatch
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// The issue asks for 10,000 timers at 1 s for 5 s; this suite runs them for 3 s (three ticks each)
// to keep the whole suite near 30 s, then 1,000 timers at 10 ms for 1 s (100 ticks each).
//
// The timers of each run are created in 100 batches spread over one interval, so their ticks are
// spread evenly, as independent timers' are. (Created in one burst, every implementation's ticks
// come in one burst a second later, and lateness then measures how fast the creation loop was.)

let timersSuite = Suite(name: "timers") {
  await latencyBenchmark(timers: 10_000, interval: .seconds(1), duration: .seconds(3))
  await latencyBenchmark(timers: 1_000, interval: .milliseconds(10), duration: .seconds(1))
  await idleBenchmark(timers: 10_000)
}

/// CPU time (user + system) used by this process so far, in milliseconds.
func cpuMilliseconds() -> Double {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
  #else
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec) / 1e3
  let system = Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
  return user + system
}

/// The number of threads of this process (Linux; 0 elsewhere).
func threadCount() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
    return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
  }
  return 0
}

/// Lateness samples, in nanoseconds: how long after its grid point each call started.
final class LatenessLog: Sendable {
  let interval: Int64
  private let samples = Mutex<[Int64]>([])

  init(interval: Duration, capacity: Int) {
    self.interval =
      Int64(interval.components.seconds) * 1_000_000_000
      + Int64(interval.components.attoseconds / 1_000_000_000)
    samples.withLock { $0.reserveCapacity(capacity) }
  }

  /// Records a call at `now` of a timer whose ticks are due at `start + k × interval`.
  func record(start: ContinuousClock.Instant, now: ContinuousClock.Instant) {
    let elapsed = start.duration(to: now)
    let nanos =
      Int64(elapsed.components.seconds) * 1_000_000_000 + Int64(elapsed.components.attoseconds / 1_000_000_000)
    let lateness = nanos % interval
    samples.withLock { $0.append(lateness) }
  }

  /// (median, p99, count) in microseconds.
  func summary() -> (median: Double, p99: Double, count: Int) {
    let sorted = samples.withLock { $0.sorted() }
    guard !sorted.isEmpty else { return (0, 0, 0) }
    let median = Double(sorted[sorted.count / 2]) / 1e3
    let p99 = Double(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) / 1e3
    return (median, p99, sorted.count)
  }
}

/// One run's results.
struct TimerRun {
  var median = 0.0
  var p99 = 0.0
  var samples = 0
  var cpu = 0.0
}

func latencyBenchmark(timers: Int, interval: Duration, duration: Duration) async {
  let clock = ContinuousClock()
  let expected = timers * Int(duration / interval)
  let settle = Duration.milliseconds(150)

  // Raw DispatchSourceTimer: one source per timer, all on one serial queue.
  var dispatch = TimerRun()
  do {
    let log = LatenessLog(interval: interval, capacity: expected)
    let queue = DispatchQueue(label: "bench.dispatch", qos: .userInitiated)
    let cpuStart = cpuMilliseconds()
    var sources: [any DispatchSourceTimer] = []
    await paced(timers, over: interval) {
      let source = DispatchSource.makeTimerSource(flags: [.strict], queue: queue)
      let start = clock.now
      source.setEventHandler { log.record(start: start, now: clock.now) }
      source.schedule(
        deadline: .now() + .nanoseconds(Int(log.interval)), repeating: .nanoseconds(Int(log.interval)),
        leeway: .nanoseconds(0))
      source.activate()
      sources.append(source)
    }
    try? await Task.sleep(for: duration + settle)
    for source in sources { source.cancel() }
    queue.sync {}
    dispatch.cpu = cpuMilliseconds() - cpuStart
    (dispatch.median, dispatch.p99, dispatch.samples) = log.summary()
  }

  // ClosureTimer on ContinuousClock: one shared dispatch timer re-armed to the earliest deadline.
  var closure = TimerRun()
  do {
    let log = LatenessLog(interval: interval, capacity: expected)
    let cpuStart = cpuMilliseconds()
    var all: [ClosureTimer] = []
    await paced(timers, over: interval) {
      let measured = ClosureTimer(every: interval) { timer in
        let now = clock.now
        // The grid point of this call: the next deadline (already set) minus one interval.
        if let next = timer.nextDeadline as? ContinuousClock.Instant {
          log.record(start: next, now: now + interval)
        }
      }
      measured.start()
      all.append(measured)
    }
    try? await Task.sleep(for: duration + settle)
    for timer in all { timer.invalidate() }
    closure.cpu = cpuMilliseconds() - cpuStart
    (closure.median, closure.p99, closure.samples) = log.summary()
  }

  // Foundation Timer on a thread that runs its RunLoop.
  var foundation = TimerRun()
  do {
    let log = LatenessLog(interval: interval, capacity: expected)
    let seconds = Double(log.interval) / 1e9
    let runFor = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 + 0.15
    let cpuStart = cpuMilliseconds()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        let runLoop = RunLoop.current
        var all: [Timer] = []
        let batchStart = Date()
        for batch in 0..<100 {
          for _ in 0..<timers / 100 {
            let start = clock.now
            let timer = Timer(timeInterval: seconds, repeats: true) { _ in log.record(start: start, now: clock.now) }
            runLoop.add(timer, forMode: .default)
            all.append(timer)
          }
          runLoop.run(until: batchStart.addingTimeInterval(seconds * Double(batch + 1) / 100))
        }
        runLoop.run(until: Date(timeIntervalSinceNow: runFor))
        for timer in all { timer.invalidate() }
        done.resume()
      }
      thread.start()
    }
    foundation.cpu = cpuMilliseconds() - cpuStart
    (foundation.median, foundation.p99, foundation.samples) = log.summary()
  }

  let label = "\(timers) timers every \(interval) for \(duration)"
  var median = Table("\(label): median lateness", unit: "µs")
  median.add("DispatchSourceTimer", dispatch.median, baseline: true)
  median.add("ClosureTimer", closure.median)
  median.add("Foundation Timer+RunLoop", foundation.median)
  median.print()
  var p99 = Table("\(label): p99 lateness", unit: "µs")
  p99.add("DispatchSourceTimer", dispatch.p99, baseline: true)
  p99.add("ClosureTimer", closure.p99)
  p99.add("Foundation Timer+RunLoop", foundation.p99)
  p99.print()
  var cpu = Table("\(label): CPU time (user + system, getrusage)", unit: "ms")
  cpu.add("DispatchSourceTimer", dispatch.cpu, baseline: true)
  cpu.add("ClosureTimer", closure.cpu)
  cpu.add("Foundation Timer+RunLoop", foundation.cpu)
  cpu.print()
  print(
    "  calls: dispatch \(dispatch.samples), ClosureTimer \(closure.samples), Foundation \(foundation.samples)"
      + " (expected about \(expected))"
  )
}

/// Runs `make` `count` times, in 100 batches spread over `interval`.
func paced(_ count: Int, over interval: Duration, _ make: () -> Void) async {
  let clock = ContinuousClock()
  let start = clock.now
  for batch in 0..<100 {
    for _ in 0..<count / 100 { make() }
    try? await Task.sleep(until: start + interval * Double(batch + 1) / 100, clock: clock)
  }
}

/// CPU used while 10,000 timers are scheduled and none is due: no thread may be busy.
func idleBenchmark(timers: Int) async {
  let before = threadCount()
  let all = (0..<timers).map { _ in ClosureTimer.schedule(every: .seconds(3600)) { _ in } }
  let cpuStart = cpuMilliseconds()
  try? await Task.sleep(for: .seconds(1))
  let idle = cpuMilliseconds() - cpuStart
  let after = threadCount()
  for timer in all { timer.invalidate() }

  let queue = DispatchQueue(label: "bench.idle")
  let sources = (0..<timers).map { _ in
    let source = DispatchSource.makeTimerSource(queue: queue)
    source.setEventHandler {}
    source.schedule(deadline: .now() + 3600, repeating: 3600)
    source.activate()
    return source
  }
  let dispatchStart = cpuMilliseconds()
  try? await Task.sleep(for: .seconds(1))
  let dispatchIdle = cpuMilliseconds() - dispatchStart
  for source in sources { source.cancel() }

  var table = Table("\(timers) timers scheduled, none due, for 1 s: CPU time", unit: "ms")
  table.add("DispatchSourceTimer", dispatchIdle, baseline: true)
  table.add("ClosureTimer", idle)
  table.print()
  print("  threads before scheduling ClosureTimers: \(before), while 10,000 are scheduled: \(after)")
}
