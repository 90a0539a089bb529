import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Foundation
import Testing

@Suite struct NotificationCenterMainActorTests {
  @Test @MainActor func mainActorObserversRunOnTheMainActorAndCallMainActorCode() async {
    let center = NotificationCenter()
    let screen = MainActorScreen()
    let name = Notification.Name("ClosureKitTests.MainActor")
    let done = Expectation(count: 2)
    center.observing(name).onMainActor.addHandler { notification in
      screen.note("plain \(notification.name.rawValue)", fulfilling: done)
    }
    center.observing(name).onMainActor.addHandler(owner: screen) { screen, _ in screen.note("owner", fulfilling: done) }
    DispatchQueue.global().async { center.post(name: name, object: nil) }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(Set(screen.log) == ["plain ClosureKitTests.MainActor", "owner"])  // the center orders observers
  }

  @Test @MainActor func aCancelledMainActorObserverIsNotCalled() async {
    let center = NotificationCenter()
    let screen = MainActorScreen()
    let name = Notification.Name("ClosureKitTests.MainActorCancelled")
    let token = center.observing(name).onMainActor.addHandler { _ in screen.note("called") }
    center.post(name: name, object: nil)  // enqueued on the main actor, not started
    token.cancel()
    await drainMainQueue()
    #expect(screen.log.isEmpty)
  }
}
