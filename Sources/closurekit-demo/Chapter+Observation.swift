import ClosureKit
import Dispatch
import Observation

/// A thermostat with an observed target temperature, as a view model would have.
final class Thermostat: @unchecked Sendable {
  // @unchecked Sendable: `_target` is never reassigned; the `Observed` box is thread-safe.
  @Observed var target = 20
}

/// A display that binds itself with `owner:`, so no `[weak self]` is needed.
final class TemperatureDisplay: Sendable {
  deinit { print("  TemperatureDisplay deallocated") }
  func show(_ value: Int) { print("  display shows \(value)°") }
}

@Observable final class Room: @unchecked Sendable {
  // @unchecked Sendable: the demo touches it only on `roomQueue`.
  var name: String
  init(name: String) { self.name = name }
}

@Observable final class House: @unchecked Sendable {
  // @unchecked Sendable: the demo touches it only on `roomQueue`.
  var room = Room(name: "kitchen")
  var temperature = 18
}

extension Chapter {
  static let observation = Chapter(
    name: "observation",
    summary: "KVO-style closures: Observed values and continuous @Observable observation"
  ) {
    let thermostat = Thermostat()

    print("1. Observed: every write reported synchronously, with KVO's options:")
    let subscription = thermostat.$target.observe(options: [.initial, .prior, .old, .new]) { change in
      if change.isPrior {
        print("  prior: about to leave \(change.oldValue!)°")
      } else {
        print("  \(change.oldValue.map { "\($0)°" } ?? "initial") -> \(change.newValue!)°")
      }
    }
    thermostat.target = 21
    thermostat.$target.modify { $0 += 2 }
    subscription.cancel()

    print("\n2. An owner-bound observer ends when its owner is deallocated:")
    var display: TemperatureDisplay? = TemperatureDisplay()
    thermostat.$target.observing().addHandler(owner: display!) { display, change in display.show(change.newValue!) }
    thermostat.target = 22
    display = nil
    thermostat.target = 19
    print("  observers left: \(thermostat.$target.observerCount)")

    print("\n3. Equal writes are reported (as KVO does) unless the box skips them:")
    let reported = Observed(1)
    let skipping = Observed(1, skipsEqualValues: true)
    reported.observe { print("  plain box, write of 1 over 1: reported \($0.newValue!)") }
    skipping.observe { print("  skipsEqualValues box: reported \($0.newValue!) (its write of 1 over 1 was not)") }
    reported.value = 1
    skipping.value = 1
    skipping.value = 2

    print("\n4. @Observable: continuous, follows a replaced object in the key path, coalesces bursts:")
    let roomQueue = DispatchQueue(label: "room")
    let house = House()
    let done = DispatchSemaphore(value: 0)
    _ = roomQueue.sync {
      house.observe(\.room.name, options: [.old, .new], on: .queue(roomQueue)) { change in
        print("  room: \(change.oldValue!) -> \(change.newValue!)")
        if change.newValue == "attic" { done.signal() }
      }
    }
    roomQueue.sync { house.room.name = "pantry" }
    roomQueue.sync { house.room = Room(name: "cellar") }
    roomQueue.sync {
      for step in 0..<1000 { house.room.name = "stair \(step)" }
      house.room.name = "attic"
    }
    done.wait()
    print("  (1,001 writes in one job on the model's queue: one callback with the last value)")

    print("\n5. changes(of:) as an AsyncSequence, ending when the object is deallocated:")
    var temporary: House? = House()
    let stream = temporary!.changes(of: \.temperature, options: [.initial, .new])
    roomQueue.sync { temporary!.temperature = 25 }
    var iterator = stream.makeAsyncIterator()
    var readings: [Int] = []
    for _ in 0..<2 {
      if let change = await iterator.next() { readings.append(change.newValue!) }
    }
    temporary = nil
    print("  temperatures: \(readings); finished: \(await iterator.next() == nil)")
  }
}
