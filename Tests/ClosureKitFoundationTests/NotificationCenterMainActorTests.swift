import ClosureKit
import ClosureKitFoundation
import ClosureKitTesting
import Dispatch
import Foundation
import Testing

/// A main-actor screen: `note` compiles only in a main-actor closure and asserts it runs there.
@MainActor final class NotifiedScreen: Sendable {
  var log: [String] = []
  func note(_ entry: String) {
    MainActor.assertIsolated()
    log.append(entry)
  }
}

@Suite struct NotificationCenterMainActorTests {
  @Test @MainActor func mainActorObserversRunOnTheMainActorAndCallMainActorCode() async {
    let center = NotificationCenter()
    let screen = NotifiedScreen()
    let name = Notification.Name("ClosureKitTests.MainActor")
    let done = Expectation(count: 2)
    center.observing(name).onMainActor.addHandler { notification in
      screen.note("plain \(notification.name.rawValue)")
      done.fulfill()
    }
    center.observing(name).onMainActor.addHandler(owner: screen) { screen, _ in
      screen.note("owner")
      done.fulfill()
    }
    DispatchQueue.global().async { center.post(name: name, object: nil) }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(Set(screen.log) == ["plain ClosureKitTests.MainActor", "owner"])  // the center orders observers
  }

  @Test @MainActor func aCancelledMainActorObserverIsNotCalled() async {
    let center = NotificationCenter()
    let screen = NotifiedScreen()
    let name = Notification.Name("ClosureKitTests.MainActorCancelled")
    let token = center.observing(name).onMainActor.addHandler { _ in screen.note("called") }
    center.post(name: name, object: nil)  // enqueued on the main actor, not started
    token.cancel()
    await drainMainQueue()
    #expect(screen.log.isEmpty)
  }
}

/// Waits until the main queue has run every job enqueued before this call.
@MainActor private func drainMainQueue() async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { done.resume() }
  }
}
