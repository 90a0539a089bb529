import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Foundation
import Testing

/// `NotificationCenter.observing(_:object:)` as a `HandlerSource`: the four registrations, and the
/// main-actor view's one-shots.
@Suite struct NotificationSourceTests {
  /// A fresh center and name per test, so tests running in parallel do not see each other's posts.
  func makeCenter() -> (NotificationCenter, Notification.Name) {
    (NotificationCenter(), Notification.Name("closurekit.source.\(UUID().uuidString)"))
  }

  @Test func observingOffersTheFourRegistrations() {
    let (center, name) = makeCenter()
    let source = center.observing(name)
    let plain = Recorder<Int>()
    let owned = Recorder<Int>()
    let once = Recorder<Int>()
    let onceOwned = Recorder<Int>()
    var owner: Tracked? = Tracked()
    weak let weakOwner = owner
    @Sendable func number(_ note: Notification) -> Int { note.userInfo?["n"] as? Int ?? -1 }
    let plainToken = source.addHandler { plain.append(number($0)) }
    source.addHandler(owner: owner!) { _, note in owned.append(number(note)) }
    let onceToken = source.once { once.append(number($0)) }
    source.once(owner: owner!) { _, note in onceOwned.append(number(note)) }
    center.post(name: name, object: nil, userInfo: ["n": 1])
    center.post(name: name, object: nil, userInfo: ["n": 2])
    owner = nil
    #expect(weakOwner == nil, "the center's observer must hold the owner weakly")
    center.post(name: name, object: nil, userInfo: ["n": 3])
    plainToken.cancel()
    center.post(name: name, object: nil, userInfo: ["n": 4])
    #expect(plain.values == [1, 2, 3])
    #expect(owned.values == [1, 2])
    #expect(once.values == [1])
    #expect(onceOwned.values == [1])
    #expect(onceToken.isCancelled, "a one-shot observer is removed once it has run")
  }

  @Test func theObjectFilterIsKept() {
    let (center, name) = makeCenter()
    let sender = Tracked()
    let seen = Recorder<Int>()
    center.observing(name, object: sender).once { _ in seen.append(1) }
    center.post(name: name, object: nil)
    center.post(name: name, object: sender)
    center.post(name: name, object: sender)
    #expect(seen.values == [1])
  }

  @Test func onceRunsExactlyOnceWhenSeveralThreadsPost() async {
    let (center, name) = makeCenter()
    let seen = Recorder<Int>()
    center.observing(name).once { _ in seen.append(1) }
    let done = ClosureKitTesting.Expectation(count: 4)
    for _ in 0..<4 {
      DispatchQueue.global().async {
        for _ in 0..<100 { center.post(name: name, object: nil) }
        done.fulfill()
      }
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(seen.values == [1])
  }

  @Test @MainActor func mainActorOnceRunsOnceOnTheMainActor() async {
    let (center, name) = makeCenter()
    let screen = MainActorScreen()
    let done = ClosureKitTesting.Expectation(count: 2)
    center.observing(name).onMainActor.once { _ in screen.note("once", fulfilling: done) }
    center.observing(name).onMainActor.once(owner: screen) { screen, _ in screen.note("once owner", fulfilling: done) }
    DispatchQueue.global().async {
      center.post(name: name, object: nil)
      center.post(name: name, object: nil)
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { drained.resume() }
    }
    #expect(screen.log.sorted() == ["once", "once owner"])
  }
}
