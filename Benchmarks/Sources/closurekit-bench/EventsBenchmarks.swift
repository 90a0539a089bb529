import ClosureKit
import ClosureKitTesting
import Foundation
import Synchronization

let eventsSuite = Suite(name: "events") {
  for handlers in [1, 10, 100] {
    sendBenchmark(handlers: handlers)
  }
  sendWithWorkTable().print()
  await asyncStreamBenchmark()
  registrationBenchmark()
  diagnosticsBenchmark()
  for handlers in [1, 10] {
    queueDeliveryBenchmark(handlers: handlers)
  }
  addCancelBenchmark()
  memoryBenchmark()
}

/// `Event.send` against a plain array of the same closures, against the multicast a user would
/// write instead (``MutexMulticast``) and against NotificationCenter, measured interleaved (see
/// ``interleavedMinimum(rounds:_:)``).
func sendBenchmark(handlers: Int) {
  sendTable(handlers: handlers).print()
}

/// The thread-safe multicast a user writes by hand instead of `Event`: the handlers in a
/// `Mutex<[closure]>`; a send copies the array under the lock and calls the copy outside it.
/// It has no "still live?" check: a handler removed during a send may still run once.
final class MutexMulticast<Value>: Sendable {
  private let handlers = Mutex<[@Sendable (Value) -> Void]>([])

  func add(_ handler: @escaping @Sendable (Value) -> Void) {
    handlers.withLock { $0.append(handler) }
  }

  func send(_ value: Value) {
    let snapshot = handlers.withLock { $0 }
    for handler in snapshot { handler(value) }
  }
}

/// The name of the send tables' ``MutexMulticast`` row.
let mutexMulticastRow = "Mutex<[closure]> multicast"

/// The table of ``sendBenchmark(handlers:)``; also read by the regression guard.
func sendTable(handlers: Int, rounds: Int = 61, withNotificationCenter: Bool = true) -> Table {
  let iterations = 20_000 / handlers
  let counter = Counter()
  let closures: [@Sendable (Int) -> Void] = (0..<handlers).map { _ in { counter.value &+= $0 } }
  let event = Event<Int>()
  for _ in 0..<handlers { event.addHandler { counter.value &+= $0 } }
  let multicast = MutexMulticast<Int>()
  for _ in 0..<handlers { multicast.add { counter.value &+= $0 } }
  let center = NotificationCenter()
  let name = Notification.Name("bench")
  let observers = (0..<handlers).map { _ in
    center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 }
  }
  var loops: [(iterations: Int, loop: TimedLoop)] = [
    (
      iterations,
      { count in
        for value in 0..<count {
          for closure in closures { closure(value) }
        }
      }
    ),
    (iterations, { count in for value in 0..<count { event.send(value) } }),
    (iterations, { count in for value in 0..<count { multicast.send(value) } }),
  ]
  if withNotificationCenter {
    loops.append((max(iterations / 20, 10), { count in for _ in 0..<count { center.post(name: name, object: nil) } }))
  }
  let times = interleavedMinimum(rounds: rounds, loops)
  var table = Table("send to \(handlers) immediate handler(s) (fastest of \(rounds) interleaved rounds)")
  table.add("plain [closure] loop", times[0], baseline: true)
  table.add("Event.send", times[1])
  table.add(mutexMulticastRow, times[2])
  if withNotificationCenter { table.add("NotificationCenter.post", times[3]) }
  for observer in observers { center.removeObserver(observer) }
  blackHole(counter.value)
  return table
}

/// The counter of ``sendWithWorkTable(rounds:)``'s handlers, captured by each.
final class AtomicCounter: Sendable {
  let value = Atomic<Int>(0)
}

/// `send` to 10 handlers that each do a little work, an atomic add (issue 29's held-out workload),
/// against the same closures called from a plain array, interleaved.
func sendWithWorkTable(rounds: Int = 61) -> Table {
  let iterations = 2_000
  let counter = AtomicCounter()
  let closures: [@Sendable (Int) -> Void] = (0..<10).map { _ in
    { counter.value.add($0, ordering: .relaxed) }
  }
  let event = Event<Int>()
  for _ in 0..<10 { event.addHandler { counter.value.add($0, ordering: .relaxed) } }
  let times = interleavedMinimum(
    rounds: rounds,
    [
      (
        iterations,
        { count in
          for value in 0..<count {
            for closure in closures { closure(value) }
          }
        }
      ),
      (iterations, { count in for value in 0..<count { event.send(value) } }),
    ])
  var table = Table("send to 10 handlers, each an atomic add (fastest of \(rounds) interleaved rounds)")
  table.add("plain [closure] loop", times[0], baseline: true)
  table.add("Event.send", times[1])
  blackHole(counter.value.load(ordering: .relaxed))
  return table
}

/// `AsyncStream` with one consumer, the Swift-concurrency way to multicast to one listener.
func asyncStreamBenchmark() async {
  let count = 200_000
  var table = Table("one value to one consumer")
  let counter = Counter()
  let stored = PlainObserved()
  stored.handler = { counter.value &+= $0 }
  table.add(
    "plain closure call",
    nanoseconds(iterations: count) { iterations in
      for value in 0..<iterations { stored.handler?(value) }
    },
    baseline: true
  )
  let streamTime = await nanosecondsOnce {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
      var sum = 0
      for await value in stream { sum &+= value }
      return sum
    }
    for value in 0..<count { continuation.yield(value) }
    continuation.finish()
    blackHole(await consumer.value)
  }
  table.add("AsyncStream yield + consume", streamTime / Double(count))
  let eventTime = await nanosecondsOnce {
    let event = Event<Int>()
    let stream = event.values
    let consumer = Task {
      var received = 0
      for await _ in stream {
        received += 1
        if received == count { break }
      }
      return received
    }
    for value in 0..<count { event.send(value) }
    blackHole(await consumer.value)
  }
  table.add("Event.values send + consume", eventTime / Double(count))
  blackHole(counter.value)
  table.print()
}

/// Adding n handlers and cancelling them all, in random order and in registration order: the time
/// per pair must not grow with n beyond what cache misses add (random order touches memory at
/// random; registration order shows the algorithm alone).
func addCancelBenchmark() {
  var table = Table("add + cancel (shuffle excluded)", unit: "ns/pair")
  var generator = SeededGenerator(seed: 42)
  for (count, shuffled) in [(10_000, true), (100_000, true), (1_000_000, true), (10_000, false), (1_000_000, false)] {
    var samples: [Double] = []
    for _ in 0..<5 {
      let event = Event<Int>()
      let clock = ContinuousClock()
      let start = clock.now
      var tokens = (0..<count).map { _ in event.addHandler { blackHole($0) } }
      var elapsed = start.duration(to: clock.now)
      if shuffled { tokens.shuffle(using: &generator) }
      let cancelStart = clock.now
      for token in tokens { token.cancel() }
      elapsed += cancelStart.duration(to: clock.now)
      precondition(event.handlerCount == 0)
      samples.append(Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9)
    }
    samples.sort()
    let order = shuffled ? "random order" : "registration order"
    table.add(
      "\(count) handlers, \(order)", samples[samples.count / 2] / Double(count), baseline: count == 10_000 && shuffled)
  }
  table.print()
}

/// Resident memory per registered handler, for 1,000,000 handlers with non-capturing closures.
/// Each variant runs in a fresh child process, so that memory freed by one cannot be reused by
/// the next.
func memoryBenchmark() {
  var table = Table("memory per handler (1,000,000 handlers, resident set delta)", unit: "bytes")
  table.add("plain [closure]", measureInChildProcess("closures"), baseline: true)
  table.add("Event, token dropped", measureInChildProcess("event-tokens-dropped"))
  table.add("Event, token kept", measureInChildProcess("event-tokens-kept"))
  table.add("Event, owner-bound, dropped", measureInChildProcess("event-owner"))
  table.print()
}

/// Runs `closurekit-bench --memory VARIANT` and reads the bytes per handler it prints.
func measureInChildProcess(_ variant: String) -> Double {
  numberFromChildProcess(["--memory", variant], requireSuccess: false)
}

/// Runs this executable again with `arguments` and reads the one number it prints; `.nan` if it
/// cannot start, prints no number, or (with `requireSuccess`) exits with a failure.
func numberFromChildProcess(_ arguments: [String], requireSuccess: Bool = true) -> Double {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  do {
    try process.run()
  } catch {
    return .nan
  }
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  if requireSuccess, process.terminationStatus != 0 { return .nan }
  return Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
}

/// The child-process side of ``measureInChildProcess(_:)``: prints bytes per handler.
func memoryProbe(_ variant: String) {
  let count = 1_000_000
  let owner = Counter()
  let before = residentBytes()
  var keep: [Any] = []
  switch variant {
  case "closures":
    var closures: [@Sendable (Int) -> Void] = []
    closures.reserveCapacity(count)
    for _ in 0..<count { closures.append { blackHole($0) } }
    keep.append(closures)
  case "event-tokens-dropped":
    let event = Event<Int>()
    for _ in 0..<count { event.addHandler { blackHole($0) } }
    keep.append(event)
  case "event-tokens-kept":
    let event = Event<Int>()
    var tokens: [HandlerSubscription] = []
    tokens.reserveCapacity(count)
    for _ in 0..<count { tokens.append(event.addHandler { blackHole($0) }) }
    keep.append(event)
    keep.append(tokens)
  case "event-owner":
    let event = Event<Int>()
    for _ in 0..<count { event.addHandler(owner: owner) { _, value in blackHole(value) } }
    keep.append(event)
  default:
    print("nan")
    return
  }
  print(Double(residentBytes() - before) / Double(count))
  blackHole(keep.count)
}
