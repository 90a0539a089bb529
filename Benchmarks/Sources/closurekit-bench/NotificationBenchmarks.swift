import ClosureKit
import ClosureKitFoundation
import Foundation

/// `NotificationCenter.observing(_:object:)` against Foundation's own block observers: posts, and
/// registration (`closurekit-bench notifications`).
let notificationsSuite = Suite(name: "notifications") {
  for observers in [1, 10, 100] {
    notificationBenchmark(observers: observers)
  }
  notificationRegistrationBenchmark()
}

/// One post to N observers: ClosureKit's tokens against Foundation's own block observers.
func notificationBenchmark(observers: Int) {
  let iterations = 200_000 / observers
  var table = Table("NotificationCenter.post to \(observers) observer(s)")
  let counter = Counter()
  let name = Notification.Name("closurekit.bench.delegates")

  let foundationCenter = NotificationCenter()
  let tokens = (0..<observers).map { _ in
    foundationCenter.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 }
  }
  table.add(
    "Foundation block observers",
    nanoseconds(iterations: iterations) { count in for _ in 0..<count { foundationCenter.post(name: name, object: nil) }
    },
    baseline: true
  )
  for token in tokens { foundationCenter.removeObserver(token) }

  let center = NotificationCenter()
  let bag = SubscriptionBag()
  for _ in 0..<observers { center.observing(name).addHandler { _ in counter.value &+= 1 }.store(in: bag) }
  table.add(
    "observing(_:).addHandler tokens",
    nanoseconds(iterations: iterations) { count in for _ in 0..<count { center.post(name: name, object: nil) } })
  bag.cancelAll()

  let ownerCenter = NotificationCenter()
  let owner = BenchmarkOwner()
  let ownerBag = SubscriptionBag()
  for _ in 0..<observers {
    ownerCenter.observing(name).addHandler(owner: owner) { _, _ in counter.value &+= 1 }.store(in: ownerBag)
  }
  table.add(
    "observing(_:).addHandler(owner:) tokens",
    nanoseconds(iterations: iterations) { count in for _ in 0..<count { ownerCenter.post(name: name, object: nil) } })
  ownerBag.cancelAll()
  table.print()
  blackHole(counter.value)
}

/// Adding and removing one handler of a name that already has 10, against Foundation's add +
/// remove observer in the same run (interleaved rounds, fastest of each): the handlers of one
/// name share one block observer, so a registration is a registry entry, not an observer.
func notificationRegistrationBenchmark(rounds: Int = 61) {
  let iterations = 2_000
  let name = Notification.Name("closurekit.bench.notifications")
  let foundationCenter = NotificationCenter()
  let foundationPresent = (0..<10).map { _ in
    foundationCenter.addObserver(forName: name, object: nil, queue: nil) { _ in }
  }
  let center = NotificationCenter()
  let present = SubscriptionBag()
  for _ in 0..<10 { center.observing(name).addHandler { _ in }.store(in: present) }
  let owner = BenchmarkOwner()
  let alone = Notification.Name("closurekit.bench.alone")
  let rows: [(name: String, iterations: Int, loop: TimedLoop)] = [
    (
      "NotificationCenter add + remove observer", iterations / 4,
      { count in
        for _ in 0..<count {
          let observer = foundationCenter.addObserver(forName: name, object: nil, queue: nil) { _ in }
          foundationCenter.removeObserver(observer)
        }
      }
    ),
    (
      "observing(_:).addHandler + cancel", iterations,
      { count in
        for _ in 0..<count { center.observing(name).addHandler { _ in }.cancel() }
      }
    ),
    (
      "observing(_:).addHandler(owner:) + cancel", iterations,
      { count in
        for _ in 0..<count { center.observing(name).addHandler(owner: owner) { _, _ in }.cancel() }
      }
    ),
    (
      "first observer of a name: NotificationCenter add + remove observer", iterations / 4,
      { count in
        for _ in 0..<count {
          let observer = foundationCenter.addObserver(forName: alone, object: nil, queue: nil) { _ in }
          foundationCenter.removeObserver(observer)
        }
      }
    ),
    (
      "first handler of a name: observing(_:).addHandler + cancel", iterations / 4,
      { count in
        for _ in 0..<count { center.observing(alone).addHandler { _ in }.cancel() }
      }
    ),
  ]
  let times = interleavedMinimum(rounds: rounds, rows.map { ($0.iterations, $0.loop) })
  var table = Table(
    "NotificationCenter: add + remove one handler, 10 present (fastest of \(rounds) interleaved rounds)",
    unit: "ns/pair")
  for (index, row) in rows.enumerated() {
    table.add(row.name, times[index], baseline: index == 0)
  }
  table.print()
  for observer in foundationPresent { foundationCenter.removeObserver(observer) }
  present.cancelAll()
}

/// Not a table: the first (and only) handler of a name added and cancelled, in a loop, for a
/// profiler (`perf record … closurekit-bench profile-notification-registration`): the path that
/// adds and removes the shared block observer. Not run by default.
let profileNotificationRegistrationSuite = Suite(name: "profile-notification-registration") {
  let center = NotificationCenter()
  let name = Notification.Name("closurekit.bench.profile")
  for _ in 0..<300_000 { center.observing(name).addHandler { _ in }.cancel() }
}
