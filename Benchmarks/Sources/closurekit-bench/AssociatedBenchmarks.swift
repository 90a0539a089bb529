import ClosureKit
import Foundation

/// Ratios are against `[ObjectIdentifier: Any]` behind a lock, the plain side table; the stored
/// property row shows the floor.
let associatedSuite = Suite(name: "associated") {
  for population in [1, 10_000] {
    associatedGetBenchmark(population: population)
    associatedSetBenchmark(population: population)
  }
  associatedChurnBenchmark()
}

/// An object with a stored property, the cheapest place to keep a value.
final class PropertyHolder {
  var value = 0
}

/// The baseline side table: `[ObjectIdentifier: Any]` behind a pthread mutex, with no weak check
/// and no clean-up (so it hands a dead object's value to a new object at the same address).
///
/// `@unchecked Sendable`: `storage` is touched only between `lock` and `unlock`.
final class LockedDictionary: @unchecked Sendable {
  private var storage: [ObjectIdentifier: Any] = [:]
  private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    return mutex
  }()

  func value(for object: AnyObject) -> Any? {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return storage[ObjectIdentifier(object)]
  }

  func setValue(_ value: Any, for object: AnyObject) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    storage[ObjectIdentifier(object)] = value
  }
}

/// Objects that keep `population - 1` other entries alive in both side tables while we measure.
func associatedPopulation(_ population: Int, key: AssociatedKey<Int>, dictionary: LockedDictionary) -> [PropertyHolder]
{
  let others = (1..<max(population, 1)).map { _ in PropertyHolder() }
  for (number, object) in others.enumerated() {
    key.setValue(number, for: object)
    dictionary.setValue(number, for: object)
  }
  return others
}

/// A key and a locked dictionary that both hold values for `population` other objects, and the
/// object the benchmark reads or writes (no value yet).
func associatedFixture(
  population: Int
) -> (key: AssociatedKey<Int>, dictionary: LockedDictionary, object: PropertyHolder, others: [PropertyHolder]) {
  let key = AssociatedKey<Int>()
  let dictionary = LockedDictionary()
  let others = associatedPopulation(population, key: key, dictionary: dictionary)
  return (key, dictionary, PropertyHolder(), others)
}

func associatedGetBenchmark(population: Int) {
  let iterations = 2_000_000
  var table = Table("get an Int (\(population) object(s) with values)")
  let (key, dictionary, object, others) = associatedFixture(population: population)
  object.value = 7
  key.setValue(7, for: object)
  dictionary.setValue(7, for: object)
  var sum = 0
  table.add(
    "stored property", nanoseconds(iterations: iterations) { count in for _ in 0..<count { sum &+= object.value } })
  table.add(
    "[ObjectIdentifier: Any] + lock",
    nanoseconds(iterations: iterations) { count in
      for _ in 0..<count { sum &+= dictionary.value(for: object) as? Int ?? 0 }
    },
    baseline: true
  )
  table.add(
    "AssociatedKey.value(for:)",
    nanoseconds(iterations: iterations) { count in for _ in 0..<count { sum &+= key.value(for: object) ?? 0 } })
  blackHole(sum)
  blackHole(others)
  table.print()
}

func associatedSetBenchmark(population: Int) {
  let iterations = 1_000_000
  var table = Table("set an Int (\(population) object(s) with values)")
  let (key, dictionary, object, others) = associatedFixture(population: population)
  table.add(
    "stored property",
    nanoseconds(iterations: iterations) { count in
      for value in 0..<count {
        object.value = value
      }
    }
  )
  table.add(
    "[ObjectIdentifier: Any] + lock",
    nanoseconds(iterations: iterations) { count in
      for value in 0..<count {
        dictionary.setValue(value, for: object)
      }
    },
    baseline: true
  )
  table.add(
    "AssociatedKey.setValue(_:for:)",
    nanoseconds(iterations: iterations) { count in
      for value in 0..<count {
        key.setValue(value, for: object)
      }
    }
  )
  blackHole(object.value)
  blackHole(others)
  table.print()
}

/// A new object gets a value and dies, over and over: the table must not grow.
func associatedChurnBenchmark() {
  let iterations = 500_000
  var table = Table("new object, set a value, object dies")
  let key = AssociatedKey<Int>()
  let dictionary = LockedDictionary()
  table.add(
    "stored property",
    nanoseconds(iterations: iterations) { count in
      for _ in 0..<count {
        let object = PropertyHolder()
        object.value = 1
        blackHole(object)
      }
    }
  )
  table.add(
    "[ObjectIdentifier: Any] + lock (leaks)",
    nanoseconds(iterations: iterations) { count in
      for _ in 0..<count {
        let object = PropertyHolder()
        dictionary.setValue(1, for: object)
      }
    },
    baseline: true
  )
  table.add(
    "AssociatedKey.setValue(_:for:)",
    nanoseconds(iterations: iterations) { count in
      for _ in 0..<count {
        let object = PropertyHolder()
        key.setValue(1, for: object)
      }
    }
  )
  table.print()
}
