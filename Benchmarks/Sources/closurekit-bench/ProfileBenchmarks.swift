import ClosureKit
import Dispatch

/// Not a table: add + cancel of one handler on an event holding 10, in a loop, for a profiler
/// (`perf record … closurekit-bench profile-add-cancel`, or `valgrind --tool=callgrind` with
/// `--short` for 100,000 pairs instead of 3,000,000). Not run by default.
/// `--owner` registers with `owner:`, `--queue` with `on: .queue`; `--control` adds a control
/// action and removes it with `removeActions(for:)`; `--bag` stores 10 tokens in a bag and drops it; `--observed`
/// observes an `Observed` holding 10 observers and cancels.
let profileAddCancelSuite = Suite(name: "profile-add-cancel") {
  let pairs = CommandLine.arguments.contains("--short") ? 100_000 : 3_000_000
  let event = Event<Int>()
  for _ in 0..<10 { event.addHandler { blackHole($0) } }
  if CommandLine.arguments.contains("--owner") {
    let owner = BenchOwner()
    for _ in 0..<pairs { event.addHandler(owner: owner) { _, value in blackHole(value) }.cancel() }
  } else if CommandLine.arguments.contains("--control") {
    let actions = ControlActions<BenchKinds, Int>()
    for _ in 0..<10 { actions.addAction(for: .first) { blackHole($0) } }
    for _ in 0..<pairs {
      actions.addAction(for: .second) { blackHole($0) }
      actions.removeActions(for: .second)
    }
  } else if CommandLine.arguments.contains("--observed") {
    let observed = Observed(0)
    for _ in 0..<10 { observed.observe { blackHole($0.newValue!) } }
    for _ in 0..<pairs { observed.observe { blackHole($0.newValue!) }.cancel() }
  } else if CommandLine.arguments.contains("--bag") {
    for _ in 0..<pairs / 10 {
      let bag = SubscriptionBag()
      for _ in 0..<10 { event.addHandler { blackHole($0) }.store(in: bag) }
    }
  } else if CommandLine.arguments.contains("--queue") {
    let queue = DispatchQueue(label: "bench.profile")
    for _ in 0..<pairs { event.addHandler(on: .queue(queue)) { blackHole($0) }.cancel() }
  } else {
    for _ in 0..<pairs { event.addHandler { blackHole($0) }.cancel() }
  }
}

/// Not a table: a send to one immediate handler, in a loop, for a profiler. Not run by default.
/// `--work`: to 10 handlers that each do an atomic add on a captured counter (the `send-10-work` row);
/// `--work --plain`: the row's baseline, the same closures called from an array.
let profileSendSuite = Suite(name: "profile-send") {
  if CommandLine.arguments.contains("--work"), CommandLine.arguments.contains("--plain") {
    // The row's baseline: the same closures called from an array.
    let counter = AtomicCounter()
    let closures: [@Sendable (Int) -> Void] = (0..<10).map { _ in { counter.value.add($0, ordering: .relaxed) } }
    for value in 0..<2_000_000 {
      for closure in closures { closure(value) }
    }
    blackHole(counter.value.load(ordering: .relaxed))
    return
  }
  if CommandLine.arguments.contains("--work") {
    let counter = AtomicCounter()
    let event = Event<Int>()
    for _ in 0..<10 { event.addHandler { counter.value.add($0, ordering: .relaxed) } }
    for value in 0..<2_000_000 { event.send(value) }
    blackHole(counter.value.load(ordering: .relaxed))
    return
  }
  let counter = Counter()
  let event = Event<Int>()
  event.addHandler { counter.value &+= $0 }
  for value in 0..<20_000_000 { event.send(value) }
  blackHole(counter.value)
}
