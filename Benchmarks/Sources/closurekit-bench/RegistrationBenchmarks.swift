import ClosureKit
import ClosureKitTesting
import Dispatch
import Foundation

/// Kinds of a control, for the `ControlActions` rows.
struct BenchKinds: OptionSet, Sendable {
  let rawValue: Int
  static let first = BenchKinds(rawValue: 1 << 0)
  static let second = BenchKinds(rawValue: 1 << 1)
}

/// A `Sendable` owner for the owner-bound rows.
final class BenchOwner: Sendable {}

/// An object that holds a weak reference to an owner: allocated and freed, it costs what a weak
/// reference costs the Swift runtime (its side table's weak count, up and down) on top of
/// ``PlainBox``. The floor of an owner-bound handler, since the lifetime rule needs the weak
/// reference.
final class WeakBox: @unchecked Sendable {
  // @unchecked Sendable: written once, in init.
  weak var owner: BenchOwner?
  init(_ owner: BenchOwner) { self.owner = owner }
}

/// ``WeakBox`` without the weak reference: the same allocation.
final class PlainBox: Sendable {
  let value: Int
  init(_ value: Int) { self.value = value }
}

/// Registering and removing one handler on a source that already holds 10, against
/// NotificationCenter's add + remove observer (the baseline) in the same run: the cost a table
/// cell pays each time it binds and unbinds. Rows are measured interleaved (see
/// ``interleavedMinimum(rounds:_:)``).
func registrationBenchmark() {
  registrationTable().print()
}

/// The table of ``registrationBenchmark()``; also read by the regression guard.
func registrationTable(rounds: Int = 61) -> Table {
  let iterations = 2_000
  let name = Notification.Name("bench")
  let center = NotificationCenter()
  let presentObservers = (0..<10).map { _ in center.addObserver(forName: name, object: nil, queue: nil) { _ in } }
  // A center of its own for the row that holds 10 observers at once, so that the baseline's
  // center never grows past what the baseline row needs.
  let batchCenter = NotificationCenter()
  let batchPresentObservers = (0..<10).map { _ in
    batchCenter.addObserver(forName: name, object: nil, queue: nil) { _ in }
  }
  var closures: [@Sendable (Int) -> Void] = (0..<10).map { _ in { blackHole($0) } }
  let event = Event<Int>()
  for _ in 0..<10 { event.addHandler { blackHole($0) } }
  let owner = BenchOwner()
  let queue = DispatchQueue(label: "bench.registration")
  let actions = ControlActions<BenchKinds, Int>()
  for _ in 0..<10 { actions.addAction(for: .first) { blackHole($0) } }
  let observed = Observed(0)
  for _ in 0..<10 { observed.observe { blackHole($0.newValue!) } }

  let rows: [(name: String, perIteration: Double, iterations: Int, loop: TimedLoop)] = [
    (
      "NotificationCenter add + remove observer", 1, iterations / 4,
      { count in
        for _ in 0..<count {
          let observer = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
          center.removeObserver(observer)
        }
      }
    ),
    (
      "plain [closure] append + removeLast", 1, iterations,
      { count in
        for _ in 0..<count {
          closures.append { blackHole($0) }
          closures.removeLast()
        }
      }
    ),
    (
      "Event.addHandler + cancel", 1, iterations,
      { count in
        for _ in 0..<count { event.addHandler { blackHole($0) }.cancel() }
      }
    ),
    (
      "Event.addHandler(owner:) + cancel", 1, iterations,
      { count in
        for _ in 0..<count { event.addHandler(owner: owner) { _, value in blackHole(value) }.cancel() }
      }
    ),
    (
      "Event.addHandler(on: .queue) + cancel", 1, iterations,
      { count in
        for _ in 0..<count { event.addHandler(on: .queue(queue)) { blackHole($0) }.cancel() }
      }
    ),
    (
      "ControlActions.addAction + removeActions", 1, iterations,
      { count in
        for _ in 0..<count {
          actions.addAction(for: .second) { blackHole($0) }
          actions.removeActions(for: .second)
        }
      }
    ),
    (
      "Observed.observe + cancel", 1, iterations,
      { count in
        for _ in 0..<count { observed.observe { blackHole($0.newValue!) }.cancel() }
      }
    ),
    (
      "(floor of owner:) object with a weak reference, made + freed", 1, iterations,
      { count in
        for _ in 0..<count { blackHole(WeakBox(owner)) }
      }
    ),
    (
      "(its baseline) same object without the weak reference", 1, iterations,
      { count in
        for _ in 0..<count { blackHole(PlainBox(1)) }
      }
    ),
    (
      "SubscriptionBag of 10 tokens, dropped (per token)", 10, iterations / 10,
      { count in
        for _ in 0..<count {
          let bag = SubscriptionBag()
          for _ in 0..<10 { event.addHandler { blackHole($0) }.store(in: bag) }
        }
      }
    ),
    (
      "(floor of the bag) 10 tokens kept, then each cancelled (per token)", 10, iterations / 10,
      { count in
        for _ in 0..<count {
          var tokens: [HandlerSubscription] = []
          tokens.reserveCapacity(10)
          for _ in 0..<10 { tokens.append(event.addHandler { blackHole($0) }) }
          for token in tokens { token.cancel() }
        }
      }
    ),
    (
      "(its baseline) NotificationCenter, 10 observers added, then each removed (per observer)", 10, iterations / 40,
      { count in
        for _ in 0..<count {
          var observers: [any NSObjectProtocol] = []
          observers.reserveCapacity(10)
          for _ in 0..<10 { observers.append(batchCenter.addObserver(forName: name, object: nil, queue: nil) { _ in }) }
          for observer in observers { batchCenter.removeObserver(observer) }
        }
      }
    ),
  ]
  let times = interleavedMinimum(rounds: rounds, rows.map { ($0.iterations, $0.loop) })
  var table = Table(
    "add + remove one handler, 10 already present (fastest of \(rounds) interleaved rounds)", unit: "ns/pair")
  for (index, row) in rows.enumerated() {
    table.add(row.name, times[index] / row.perIteration, baseline: index == 0)
  }
  for observer in presentObservers { center.removeObserver(observer) }
  for observer in batchPresentObservers { batchCenter.removeObserver(observer) }
  blackHole(closures.count)
  return table
}

/// Sends through `Delivery.queue` against a hand-written `DispatchQueue.async` loop calling the
/// same closures: the time from the first send until the queue has run every delivery.
func queueDeliveryBenchmark(handlers: Int) {
  let sends = 20_000 / handlers
  var table = Table("send to \(handlers) handler(s) on a serial queue, until run", unit: "ns/send")
  let queue = DispatchQueue(label: "bench.delivery")
  let counter = Counter()
  let closures: [@Sendable (Int) -> Void] = (0..<handlers).map { _ in { counter.value &+= $0 } }
  table.add(
    "hand-written DispatchQueue.async loop",
    nanosecondsOnce {
      for _ in 0..<sends {
        for closure in closures { queue.async { closure(1) } }
      }
      queue.sync {}
    } / Double(sends),
    baseline: true
  )
  let event = Event<Int>()
  for _ in 0..<handlers { event.addHandler(on: .queue(queue)) { counter.value &+= $0 } }
  table.add(
    "Event.send, Delivery.queue",
    nanosecondsOnce {
      for _ in 0..<sends { event.send(1) }
      queue.sync {}
    } / Double(sends)
  )
  queue.sync { blackHole(counter.value) }
  table.print()
}

/// What `HandlerDiagnostics` cost: add + cancel and a send to 10 handlers with the switch off and
/// on, interleaved. Each body flips the switch once and then runs 100 operations.
func diagnosticsBenchmark() {
  let event = Event<Int>()
  for _ in 0..<10 { event.addHandler { blackHole($0) } }
  let rows: [(name: String, loop: TimedLoop)] = [
    (
      "add + cancel, diagnostics off",
      { count in
        HandlerDiagnostics.disable()
        for _ in 0..<count { event.addHandler { blackHole($0) }.cancel() }
      }
    ),
    (
      "add + cancel, diagnostics on",
      { count in
        HandlerDiagnostics.enable { _ in }
        for _ in 0..<count { event.addHandler { blackHole($0) }.cancel() }
        HandlerDiagnostics.disable()
      }
    ),
    (
      "send to 10, diagnostics off",
      { count in
        HandlerDiagnostics.disable()
        for value in 0..<count { event.send(value) }
      }
    ),
    (
      "send to 10, diagnostics on",
      { count in
        HandlerDiagnostics.enable { _ in }
        for value in 0..<count { event.send(value) }
        HandlerDiagnostics.disable()
      }
    ),
  ]
  let times = interleavedMinimum(rounds: 61, rows.map { (2_000, $0.loop) })
  for first in [0, 2] {
    var table = Table("HandlerDiagnostics off and on (fastest of 61 interleaved rounds)", unit: "ns/op")
    for index in first...first + 1 {
      table.add(rows[index].name, times[index], baseline: index == first)
    }
    table.print()
  }
}
