import ClosureKit
import ClosureKitTesting
import Dispatch
import Observation
import Synchronization

let observationSuite = Suite(name: "observation") {
  observedWriteBenchmark()
  observableCycleBenchmark()
  await mainActorChainBenchmark()
  await coalescingBenchmark()
  crossThreadMissRate()
}

/// The `Observed` write table five times in one process (not in the default run): for work on the
/// write path, and for a profiler (`perf record -g closurekit-bench profile-observed-write`).
let observedWriteProfileSuite = Suite(name: "profile-observed-write") {
  if CommandLine.arguments.contains("--single") {
    // The guard's `observed-write` row alone: one `[.new]` observer, 20 million writes.
    let counter = Counter()
    let box = Observed(0)
    box.observe { counter.value &+= $0.newValue! }
    for value in 0..<20_000_000 { box.value = value }
    blackHole(counter.value)
    return
  }
  for _ in 0..<5 { observedWriteBenchmark() }
}

/// A stored property plus one call of an optional stored closure: the cheapest possible
/// "observed" write, as a hand-written `didSet { onChange?(value) }` does it.
final class PlainObserved: @unchecked Sendable {
  // @unchecked Sendable: used from one thread at a time.
  var value = 0
  /// Optional and stored in the object, so the call is an indirect call the optimiser cannot
  /// inline away (the handler is assigned after the object is made).
  var handler: ((Int) -> Void)?
}

@Observable final class BenchModel: @unchecked Sendable {
  // @unchecked Sendable: each benchmark touches it on one queue only.
  var count = 0
}

/// Runs `onChange` once, at the next write of `model.count` (in its `willSet`): the
/// `withObservationTracking` call of each hand-written re-arm loop.
func onNextCountChange(of model: BenchModel, _ onChange: @escaping @Sendable () -> Void) {
  withObservationTracking({ _ = model.count }, onChange: onChange)
}

/// A model that any thread may write: its storage is behind a mutex.
final class LockedModel: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let storage = Mutex(0)

  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return storage.withLock { $0 }
    }
    set {
      registrar.withMutation(of: self, keyPath: \.count) { storage.withLock { $0 = newValue } }
    }
  }
}

/// The table of ``interleavedMinimum(rounds:_:)`` over `variants`: one row per variant, each its
/// fastest of `rounds` interleaved rounds, the first the baseline.
func interleavedTable(
  _ title: String, _ variants: [(name: String, loop: TimedLoop)], iterations: Int, rounds: Int
) -> Table {
  let best = interleavedMinimum(rounds: rounds, variants.map { (iterations, $0.loop) })
  var table = Table(title)
  for (index, variant) in variants.enumerated() {
    table.add(variant.name, best[index], baseline: index == 0)
  }
  return table
}

/// `Observed` writes against a stored property write plus one closure call.
func observedWriteBenchmark() {
  observedWriteTable().print()
}

/// The table of ``observedWriteBenchmark()``; the guard checks its `[.new]` row, measured in more,
/// shorter rounds (as the event tables are): under load, a write's atomic operations are slowed in
/// bursts that can span all 15 long rounds.
func observedWriteTable(rounds: Int = 15, iterations: Int = 100_000) -> Table {
  let counter = Counter()
  var variants: [(name: String, loop: TimedLoop)] = []

  let plain = PlainObserved()
  plain.handler = { counter.value &+= $0 }
  variants.append(
    (
      "stored property + optional stored closure call",
      { count in
        for value in 0..<count {
          plain.value = value
          plain.handler?(value)
        }
      }
    )
  )

  let empty = Observed(0)
  variants.append(("Observed, 0 observers", { count in for value in 0..<count { empty.value = value } }))

  let observed = Observed(0)
  observed.observe { counter.value &+= $0.newValue! }
  variants.append(("Observed, 1 observer [.new]", { count in for value in 0..<count { observed.value = value } }))

  let both = Observed(0)
  both.observe(options: [.old, .new]) { counter.value &+= $0.newValue! &- $0.oldValue! }
  variants.append(
    ("Observed, 1 observer [.old, .new]", { count in for value in 0..<count { both.value = value } }))
  variants.append(("Observed.modify, 1 observer", { count in for _ in 0..<count { both.modify { $0 &+= 1 } } }))

  let prior = Observed(0)
  prior.observe(options: [.prior, .old, .new]) { counter.value &+= $0.oldValue! }
  variants.append(
    ("Observed, 1 observer [.prior, .old, .new]", { count in for value in 0..<count { prior.value = value } }))

  let ten = Observed(0)
  for _ in 0..<10 { ten.observe { counter.value &+= $0.newValue! } }
  variants.append(("Observed, 10 observers", { count in for value in 0..<count { ten.value = value } }))

  let table = interleavedTable(
    "Observed write (best of \(rounds) interleaved rounds)", variants, iterations: iterations, rounds: rounds)
  blackHole(counter.value)
  return table
}

/// A scheduler whose jobs run when the benchmark says, on the benchmark's thread: the cycle is
/// measured without thread hand-offs.
///
/// `@unchecked Sendable`: used from one thread only.
final class ManualScheduler: @unchecked Sendable {
  var jobs: [@Sendable () -> Void] = []

  func runAll() {
    while !jobs.isEmpty {
      let batch = jobs
      jobs = []
      for job in batch { job() }
    }
  }
}

/// One full cycle per write: a write, then its delivery, before the next write, all on one thread
/// (the hop goes through a manual scheduler). ClosureKit's continuous observer against the loops
/// people write by hand. The variants run interleaved, round after round, and the fastest round of
/// each counts: on a shared machine that is the least disturbed one.
func observableCycleBenchmark() {
  let iterations = 5_000
  let rounds = 15
  let counter = Counter()
  let scheduler = ManualScheduler()
  var variants: [(name: String, loop: TimedLoop)] = []
  /// The timed loop: a write of the next value, then every hop it caused, `count` times.
  func cycle(_ model: BenchModel) -> TimedLoop {
    { count in
      for value in 0..<count {
        model.count = value
        scheduler.runAll()
      }
    }
  }

  do {
    let model = BenchModel()
    // The hand-written loop: re-register after the hop, read the new value there.
    @Sendable func track() {
      onNextCountChange(of: model) {
        scheduler.jobs.append {
          counter.value &+= model.count
          track()
        }
      }
    }
    track()
    variants.append(("withObservationTracking loop, hop", cycle(model)))
  }

  do {
    // The same loop written so that it does not leak: the model's registrar holds `onChange`, so
    // capturing the model strongly there keeps it alive for ever; correct code captures it weakly.
    @Sendable func track(_ model: BenchModel) {
      onNextCountChange(of: model) { [weak model] in
        scheduler.jobs.append { [weak model] in
          guard let model else { return }
          counter.value &+= model.count
          track(model)
        }
      }
    }
    let model = BenchModel()
    track(model)
    variants.append(("withObservationTracking loop, hop, [weak model]", cycle(model)))
  }

  var subscriptions: [HandlerSubscription] = []
  for (name, options) in [("[.new]", ObservationOptions.new), ("[.prior, .old, .new]", [.prior, .old, .new])] {
    let model = BenchModel()
    subscriptions.append(
      model.observe(\.count, options: options, on: .scheduled { scheduler.jobs.append($0) }) {
        counter.value &+= $0.newValue ?? 0
      }
    )
    variants.append(("ClosureKit observe \(name)", cycle(model)))
  }

  do {
    let model = BenchModel()
    // The synchronous variant: re-register inside onChange (no new value: it runs in willSet).
    @Sendable func track() {
      onNextCountChange(of: model) {
        counter.value &+= 1
        track()
      }
    }
    track()
    variants.append(
      (
        "withObservationTracking, re-arm in willSet",
        { count in for value in 0..<count { model.count = value } }
      )
    )
  }

  let table = interleavedTable(
    "@Observable: write + delivery of that write (hop via a manual scheduler, best of \(rounds))", variants,
    iterations: iterations, rounds: rounds)
  for subscription in subscriptions { subscription.cancel() }
  blackHole(counter.value)
  table.print()
  print(
    "  the first loop keeps its model alive once the model's last reference is gone: \(naiveLoopKeepsItsModelAlive() ? "yes (a leak)" : "no")"
  )
}

/// Whether the hand-written loop that captures the model strongly keeps the model alive: the
/// model's registrar holds `onChange`, which holds the model.
func naiveLoopKeepsItsModelAlive() -> Bool {
  weak var weakModel: BenchModel?
  do {
    let model = BenchModel()
    weakModel = model
    @Sendable func track() {
      onNextCountChange(of: model) { track() }
    }
    track()
  }
  return weakModel != nil
}

/// How many callbacks 100,000 writes in a tight loop cause.
func coalescingBenchmark() async {
  let writes = 100_000
  var table = Table("100,000 writes in a tight loop: post callbacks delivered", unit: "callbacks")
  let queue = DispatchQueue(label: "owner")

  for delivery in ["immediate", "queue"] {
    let box = Observed(0)
    let calls = Counter()
    let done = DispatchSemaphore(value: 0)
    box.observe(on: delivery == "queue" ? .queue(queue) : .immediate) { change in
      calls.value += 1
      if change.newValue == writes { done.signal() }
    }
    for value in 1...writes { box.value = value }
    done.wait()
    table.add("Observed, \(delivery)", Double(calls.value))
  }

  do {
    let model = BenchModel()
    let calls = Counter()
    let done = DispatchSemaphore(value: 0)
    _ = queue.sync {
      model.observe(\.count, on: .queue(queue)) { change in
        calls.value += 1
        if change.newValue == writes { done.signal() }
      }
    }
    queue.async { for value in 1...writes { model.count = value } }
    done.wait()
    table.add("@Observable, .queue(owner), writes on owner", Double(calls.value))
  }

  do {
    let calls = await MainActor.run { Counter() }
    let model = await MainActor.run { BenchModel() }
    let (finished, done) = AsyncStream.makeStream(of: Void.self)
    await MainActor.run {
      model.observe(\.count) { change in
        calls.value += 1
        if change.newValue == writes { done.finish() }
      }
      for value in 1...writes { model.count = value }
    }
    for await _ in finished {}
    table.add("@Observable, .immediate, writes on main actor", Double(calls.value))
  }

  do {
    let model = LockedModel()
    let calls = Counter()
    let last = Mutex(0)
    let observer = DispatchQueue(label: "observer")
    model.observe(\.count, on: .queue(observer)) { change in
      calls.value += 1
      last.withLock { $0 = change.newValue! }
    }
    let writer = DispatchQueue(label: "writer")
    writer.sync { for value in 1...writes { model.count = value } }
    observer.sync {}
    table.add("@Observable, .queue(other), writes on another thread", Double(calls.value))
  }
  table.print()
}

/// Writes from a thread other than the one the post hop runs on are best effort: how often is the
/// last value of a burst missed?
func crossThreadMissRate() {
  var table = Table("cross-thread bursts: last value missed", unit: "% of bursts")
  let trials = 1_000
  var generator = SeededGenerator(seed: 7)
  for (name, delivery) in [("queue(other)", "queue"), ("immediate (hop off the writer)", "immediate")] {
    var missed = 0
    let model = LockedModel()
    let last = Mutex(-1)
    let observer = DispatchQueue(label: "observer")
    let subscription = model.observe(\.count, on: delivery == "queue" ? .queue(observer) : .immediate) { change in
      last.withLock { $0 = change.newValue! }
    }
    let writer = DispatchQueue(label: "writer")
    var value = 0
    for _ in 0..<trials {
      let burst = Int(generator.next() % 64) + 1
      let start = value
      writer.sync {
        for offset in 1...burst { model.count = start + offset }
      }
      value += burst
      // Let every hop that the burst scheduled run: they were all enqueued before the burst ended.
      observer.sync {}
      let deadline = ContinuousClock.now + .milliseconds(200)
      while last.withLock({ $0 }) != value, ContinuousClock.now < deadline {}
      if last.withLock({ $0 }) != value { missed += 1 }
    }
    subscription.cancel()
    table.add(name, Double(missed) * 100 / Double(trials))
  }
  table.print()
}

@MainActor @Observable final class MainModel {
  var count = 0
}

/// `@MainActor` models: a chain of cycles on the main actor, each write made by the delivery of
/// the previous one, so every cycle includes one hop through the main queue, as in an app. The
/// hand-written loop hops with `DispatchQueue.main.async` and captures the model weakly.
func mainActorChainBenchmark() async {
  let cycles = 20_000
  var handWritten = Double.infinity
  var closureKit = Double.infinity
  for _ in 0..<5 {
    handWritten = min(handWritten, await handWrittenMainChain(cycles))
    closureKit = min(closureKit, await closureKitMainChain(cycles))
  }
  var table = Table("@MainActor @Observable: chained write + delivery through the main queue (best of 5)")
  table.add("withObservationTracking loop, hop via DispatchQueue.main", handWritten, baseline: true)
  table.add("ClosureKit observe (@MainActor overload), .immediate", closureKit)
  table.print()
}

/// Nanoseconds per cycle of a chain of `cycles` hand-written re-arms on the main actor.
@MainActor func handWrittenMainChain(_ cycles: Int) async -> Double {
  let chain = HandWrittenChain(cycles: cycles)
  let start = ContinuousClock.now
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    chain.done = done
    chain.track()
    chain.model.count = 1
  }
  return withExtendedLifetime(chain) { nanosecondsPerCycle(since: start, cycles) }
}

/// The re-arm loop people write for a main-actor model, capturing weakly and hopping through the
/// main queue to read the new value.
@MainActor final class HandWrittenChain {
  let model = MainModel()
  let cycles: Int
  var done: CheckedContinuation<Void, Never>?

  init(cycles: Int) {
    self.cycles = cycles
  }

  func track() {
    withObservationTracking {
      _ = model.count
    } onChange: { [weak self] in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { self?.changed() }
      }
    }
  }

  func changed() {
    let value = model.count
    if value == cycles {
      done?.resume()
    } else {
      track()
      model.count = value + 1
    }
  }
}

/// Nanoseconds per cycle of a chain of `cycles` ClosureKit deliveries on the main actor.
@MainActor func closureKitMainChain(_ cycles: Int) async -> Double {
  let model = MainModel()
  let token = Slot()
  let start = ContinuousClock.now
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    token.subscription = model.observe(\.count) { change in
      MainActor.assumeIsolated {
        let value = change.newValue!
        if value == cycles {
          done.resume()
        } else {
          model.count = value + 1
        }
      }
    }
    model.count = 1
  }
  token.subscription?.cancel()
  return nanosecondsPerCycle(since: start, cycles)
}

/// Holds a token on the main actor.
@MainActor final class Slot {
  var subscription: HandlerSubscription?
}

/// The time since `start`, in nanoseconds per cycle.
func nanosecondsPerCycle(since start: ContinuousClock.Instant, _ cycles: Int) -> Double {
  let elapsed = start.duration(to: .now)
  return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(cycles)
}
