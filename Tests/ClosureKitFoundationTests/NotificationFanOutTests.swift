import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Foundation
import Testing

@testable import ClosureKitFoundation

/// `NotificationCenter.observing(_:object:)` on the one registry: the registrations of one center,
/// name and sender share one block observer (`NotificationRelays`), added with the first and
/// removed with the last, and no registration made before a post misses it.
@Suite struct NotificationFanOutTests {
  func makeCenter() -> (NotificationCenter, Notification.Name) {
    (NotificationCenter(), Notification.Name("closurekit.fanout.\(UUID().uuidString)"))
  }

  @Test func registrationsOfOneNameShareOneObserverRemovedWithTheLast() {
    let (center, name) = makeCenter()
    let seen = Recorder<String>()
    let first = center.observing(name).addHandler { _ in seen.append("first") }
    let second = center.observing(name).addHandler(on: .immediate) { _ in seen.append("second") }
    let third = center.observing(name).once { _ in seen.append("third") }
    #expect(NotificationRelays.sharedListCount(of: center) == 1)
    center.post(name: name, object: nil)
    #expect(seen.values == ["first", "second", "third"], "in registration order")
    #expect(third.isCancelled)
    first.cancel()
    #expect(NotificationRelays.sharedListCount(of: center) == 1)
    second.cancel()
    #expect(NotificationRelays.sharedListCount(of: center) == 0, "the last removal removes the observer")
    #expect(NotificationRelays.slotCount(ofCenter: ObjectIdentifier(center)) == 0, "and retires the list")
    center.post(name: name, object: nil)
    #expect(seen.values == ["first", "second", "third"])
    // A registration after the last removal adds a new observer.
    let again = center.observing(name).addHandler { _ in seen.append("again") }
    center.post(name: name, object: nil)
    #expect(seen.values == ["first", "second", "third", "again"])
    #expect(NotificationRelays.sharedListCount(of: center) == 1)
    again.cancel()
  }

  @Test func sendersShareOnlyWithTheSameObject() {
    let (center, name) = makeCenter()
    let (left, right) = (Tracked("left"), Tracked("right"))
    let seen = Recorder<String>()
    let bag = SubscriptionBag()
    center.observing(name, object: left).addHandler { _ in seen.append("left 1") }.store(in: bag)
    center.observing(name, object: left).addHandler { _ in seen.append("left 2") }.store(in: bag)
    center.observing(name, object: right).addHandler { _ in seen.append("right") }.store(in: bag)
    center.observing(name).addHandler { _ in seen.append("any") }.store(in: bag)
    #expect(NotificationRelays.sharedListCount(of: center) == 3)
    center.post(name: name, object: left)
    #expect(Set(seen.values) == ["left 1", "left 2", "any"])
    center.post(name: name, object: right)
    #expect(Set(seen.values.dropFirst(3)) == ["right", "any"])
    bag.cancelAll()
    #expect(NotificationRelays.sharedListCount(of: center) == 0)
  }

  @Test func aSenderThatIsNotAnObjectGetsAnObserverOfItsOwn() {
    let (center, name) = makeCenter()
    let seen = Recorder<String>()
    let token = center.observing(name, object: "a string").addHandler { _ in seen.append("string") }
    let other = center.observing(name, object: 42).addHandler { _ in seen.append("number") }
    #expect(NotificationRelays.sharedListCount(of: center) == 0, "not shared: matched by Foundation alone")
    center.post(name: name, object: Tracked())
    #expect(seen.values.isEmpty)
    token.cancel()
    other.cancel()
    #expect(token.isCancelled && other.isCancelled)
  }

  @Test func anOwnerFoundGoneAtAPostRemovesTheObserver() {
    let (center, name) = makeCenter()
    var owner: Tracked? = Tracked()
    let seen = Recorder<String>()
    center.observing(name).addHandler(owner: owner!) { owner, _ in seen.append(owner.name) }
    center.post(name: name, object: nil)
    owner = nil
    #expect(NotificationRelays.sharedListCount(of: center) == 1)
    center.post(name: name, object: nil)
    #expect(NotificationRelays.sharedListCount(of: center) == 0)
    #expect(seen.values == ["tracked"])
  }

  @Test func aDeallocatedCenterReleasesTheHandlersItsTokensStillName() {
    var center: NotificationCenter? = NotificationCenter()
    let centerID = ObjectIdentifier(center!)
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    let tokens = (0..<3).map { _ in center!.observing(.init("x")).addHandler { [captured] _ in _ = captured } }
    #expect(NotificationRelays.slotCount(ofCenter: centerID) == 1)
    captured = nil
    center = nil
    #expect(weakCaptured == nil)
    #expect(tokens.allSatisfy { $0.isCancelled }, "the center's deallocation ends its handlers")
    #expect(NotificationRelays.slotCount(ofCenter: centerID) == 0, "and retires its shared list")
    for token in tokens { token.cancel() }
  }

  /// Threads register, post and cancel on one name at once, the last removal racing the next
  /// registration: a handler registered before a post always sees it, and at the end no shared
  /// observer is left. Heavy (it keeps both cores busy), and shorter under the sanitizers, where
  /// each round is ten times slower and the other suites' deadlines share the machine.
  @Test(.heavy) func registrationsRacingTheLastRemovalMissNoPost() async {
    let (center, name) = makeCenter()
    let missed = Recorder<String>()
    let threads = 4
    let rounds = isUnderThreadSanitizer || isUnderAddressSanitizer ? 40 : 400
    let done = ClosureKitTesting.Expectation(count: threads)
    for thread in 0..<threads {
      DispatchQueue.global().async {
        for round in 0..<rounds {
          let marker = "\(thread).\(round)"
          let seen = Slot<Bool>()
          let token = center.observing(name).addHandler { note in
            if note.userInfo?["marker"] as? String == marker { seen.value = true }
          }
          center.post(name: name, object: nil, userInfo: ["marker": marker])
          if seen.value != true { missed.append(marker) }
          token.cancel()
        }
        done.fulfill()
      }
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(missed.values.isEmpty, "posts missed by handlers registered before them: \(missed.values)")
    #expect(NotificationRelays.sharedListCount(of: center) == 0)
  }
}
