import ClosureKit
import Foundation

// `setValue` and `value(for:)` of an `AssociatedKey<Int>` with 10,000 live objects holding a
// value, against the same operations on a `[ObjectIdentifier: Int]` behind a pthread mutex (the
// lock ClosureKit itself uses on Linux). Self-contained: each timed loop is the operation and
// nothing else (no closure call, no captured counter), written out once per side with the same
// shape, and the rows are measured in interleaved rounds in one process.

/// The `associated-cost` suite: the rows the Linux side table is held to (within 3× of the
/// baseline).
let associatedCostSuite = Suite(name: "associated-cost") {
  associatedCostBenchmark(population: 10_000, rounds: 101)
}

/// An object that holds nothing itself: only its identity is used.
final class CostSubject {}

/// The baseline: a `[ObjectIdentifier: Int]` behind a `pthread_mutex_t`, with no weak check and no
/// clean-up (a dead object's value stays, and is handed to a new object at the same address).
///
/// `@unchecked Sendable`: `storage` is read and written only between `lock()` and `unlock()`.
final class LockedIdentifierTable: @unchecked Sendable {
  private var storage: [ObjectIdentifier: Int] = [:]
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  /// Not inlined, as `AssociatedKey`'s methods are not (they are in another module).
  @inline(never)
  func value(for object: AnyObject) -> Int? {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return storage[ObjectIdentifier(object)]
  }

  @inline(never)
  func setValue(_ value: Int, for object: AnyObject) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    storage[ObjectIdentifier(object)] = value
  }
}

/// Nanoseconds since `start`.
private func elapsedNanoseconds(since start: ContinuousClock.Instant) -> Double {
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
}

// The four timed loops: the same shape on both sides.

@inline(never)
private func timeKeyGet(_ key: AssociatedKey<Int>, _ object: CostSubject, _ iterations: Int) -> Double {
  var sum = 0
  let start = ContinuousClock.now
  for _ in 0..<iterations { sum &+= key.value(for: object) ?? 0 }
  let nanoseconds = elapsedNanoseconds(since: start)
  blackHole(sum)
  return nanoseconds / Double(iterations)
}

@inline(never)
private func timeBaselineGet(_ table: LockedIdentifierTable, _ object: CostSubject, _ iterations: Int) -> Double {
  var sum = 0
  let start = ContinuousClock.now
  for _ in 0..<iterations { sum &+= table.value(for: object) ?? 0 }
  let nanoseconds = elapsedNanoseconds(since: start)
  blackHole(sum)
  return nanoseconds / Double(iterations)
}

@inline(never)
private func timeKeySet(_ key: AssociatedKey<Int>, _ object: CostSubject, _ iterations: Int) -> Double {
  let start = ContinuousClock.now
  for step in 0..<iterations { key.setValue(step, for: object) }
  return elapsedNanoseconds(since: start) / Double(iterations)
}

@inline(never)
private func timeBaselineSet(_ table: LockedIdentifierTable, _ object: CostSubject, _ iterations: Int) -> Double {
  let start = ContinuousClock.now
  for step in 0..<iterations { table.setValue(step, for: object) }
  return elapsedNanoseconds(since: start) / Double(iterations)
}

/// Prints one row: its fastest and median round, and both against the baseline's.
private func printCostRow(_ name: String, _ samples: [Double], baseline: [Double]) {
  let best = samples.min() ?? .nan
  let median = samples.sorted()[samples.count / 2]
  let baseBest = baseline.min() ?? .nan
  let baseMedian = baseline.sorted()[baseline.count / 2]
  print(
    "  \(name.padding(toLength: 44))  best \(format(best).leftPadding(toLength: 7)) ns (x\(format(best / baseBest, decimals: 2)))"
      + "   median \(format(median).leftPadding(toLength: 7)) ns (x\(format(median / baseMedian, decimals: 2)))"
  )
}

/// `population` objects each hold a value under one key and in the baseline table; the measured
/// object is one of them. Each round times every row once, in turn.
func associatedCostBenchmark(population: Int, rounds: Int) {
  let key = AssociatedKey<Int>()
  let baseline = LockedIdentifierTable()
  let objects = (0..<population).map { _ in CostSubject() }
  for (number, object) in objects.enumerated() {
    key.setValue(number, for: object)
    baseline.setValue(number, for: object)
  }
  let object = objects[population / 2]
  let iterations = 20_000
  var baseGet: [Double] = []
  var keyGet: [Double] = []
  var baseSet: [Double] = []
  var keySet: [Double] = []
  for _ in 0..<rounds {
    baseGet.append(timeBaselineGet(baseline, object, iterations))
    keyGet.append(timeKeyGet(key, object, iterations))
    baseSet.append(timeBaselineSet(baseline, object, iterations))
    keySet.append(timeKeySet(key, object, iterations))
  }
  print("\nget and set an Int, \(population) live objects with a value, \(rounds) interleaved rounds")
  printCostRow("[ObjectIdentifier: Int] + lock: value (baseline)", baseGet, baseline: baseGet)
  printCostRow("AssociatedKey.value(for:)", keyGet, baseline: baseGet)
  printCostRow("[ObjectIdentifier: Int] + lock: set (baseline)", baseSet, baseline: baseSet)
  printCostRow("AssociatedKey.setValue(_:for:)", keySet, baseline: baseSet)
  blackHole(objects)
  fflush(nil)
}
