import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Foundation
import Testing

/// The three ways to register a notification handler, each given `.operationQueue(queue)`.
enum NotificationForm: String, CaseIterable, Sendable {
  case addHandler, addHandlerWithOwner, once

  /// Registers `handler`, which receives whether it runs as an operation of `queue`.
  @discardableResult
  func register(
    _ source: NotificationSource, on queue: OperationQueue, _ handler: @escaping @Sendable (Bool) -> Void
  ) -> HandlerSubscription {
    switch self {
    case .addHandler:
      source.addHandler(on: .operationQueue(queue)) { _ in handler(Self.runs(on: queue)) }
    case .addHandlerWithOwner:
      source.addHandler(owner: Self.owner, on: .operationQueue(queue)) { _, _ in
        handler(Self.runs(on: queue))
      }
    case .once:
      source.once(on: .operationQueue(queue)) { _ in handler(Self.runs(on: queue)) }
    }
  }

  /// An owner that outlives every test.
  static let owner = Tracked("owner")

  /// Whether the caller runs on `queue`: in one of its operations, or, for the main queue, on the
  /// main dispatch queue (on Linux the main actor runs there, off the main thread, once Swift
  /// Testing has called `dispatchMain()`, and `OperationQueue.current` is `nil`).
  static func runs(on queue: OperationQueue) -> Bool {
    if OperationQueue.current === queue { return true }
    return queue === OperationQueue.main && DispatchQueue.getSpecific(key: mainQueueKey.key) == true
  }

  /// A key the tests set on the main dispatch queue.
  static let mainQueueKey: MainQueueKey = {
    let key = MainQueueKey()
    DispatchQueue.main.setSpecific(key: key.key, value: true)
    return key
  }()
}

/// A dispatch key, set once on the main queue. `@unchecked Sendable`: a constant key that is only
/// passed to libdispatch's thread-safe `setSpecific` and `getSpecific`.
final class MainQueueKey: @unchecked Sendable {
  let key = DispatchSpecificKey<Bool>()
}

/// swift-corelibs-foundation's `TestNotificationCenter.test_observeOnSpecificQueue*` cases, for
/// each of ClosureKit's forms with `.operationQueue`: as with Foundation's
/// `addObserver(forName:object:queue:using:)`, the handlers have run, on their queues, when `post`
/// returns, whichever thread or queue posts.
@Suite struct NotificationOperationQueueTests {
  private static func makeCenter() -> (NotificationCenter, Notification.Name) {
    (NotificationCenter(), Notification.Name("closurekit.test.\(UUID().uuidString)"))
  }

  /// Posted from the main thread: the handler on another queue is waited for, the one on the main
  /// queue runs at once (the main thread is the main queue's).
  @Test(arguments: NotificationForm.allCases)
  @MainActor func operationQueueHandlersHaveRunWhenAPostFromTheMainThreadReturns(_ form: NotificationForm) {
    let (center, name) = Self.makeCenter()
    let queue = OperationQueue()
    let ran = Recorder<String>()
    form.register(center.observing(name), on: queue) { onQueue in ran.append("queue \(onQueue)") }
    form.register(center.observing(name), on: .main) { onMain in ran.append("main \(onMain)") }
    center.post(name: name, object: nil)
    #expect(ran.values == ["queue true", "main true"])
  }

  /// Posted from an operation of the observed queue itself: its handler runs at once (waiting for
  /// it there could never end), the main queue's is waited for.
  @Test(arguments: NotificationForm.allCases)
  @MainActor func aPostFromAnOperationOfTheObservedQueueRunsItsHandlersBeforeReturning(
    _ form: NotificationForm
  ) async {
    let (center, name) = Self.makeCenter()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1  // a second operation could only start after the first
    let ran = Recorder<String>()
    form.register(center.observing(name), on: queue) { onQueue in ran.append("queue \(onQueue)") }
    form.register(center.observing(name), on: .main) { onMain in ran.append("main \(onMain)") }
    let seen = Slot<[String]>()
    let done = Expectation()
    queue.addOperation {
      center.post(name: name, object: nil)
      seen.value = ran.values
      done.fulfill()
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(seen.value == ["queue true", "main true"])
  }

  /// Posted from an operation of an unrelated queue: both handlers are waited for.
  @Test(arguments: NotificationForm.allCases)
  @MainActor func aPostFromAnUnrelatedQueueReturnsAfterTheHandlersRan(_ form: NotificationForm) async {
    let (center, name) = Self.makeCenter()
    let queue = OperationQueue()
    let postingQueue = OperationQueue()
    let ran = Recorder<String>()
    form.register(center.observing(name), on: queue) { onQueue in ran.append("queue \(onQueue)") }
    form.register(center.observing(name), on: .main) { onMain in ran.append("main \(onMain)") }
    let seen = Slot<[String]>()
    let done = Expectation()
    postingQueue.addOperation {
      center.post(name: name, object: nil)
      seen.value = ran.values
      done.fulfill()
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(seen.value == ["queue true", "main true"])
  }

  /// Only a post waits: an `Event`'s `.operationQueue` handler stays asynchronous, also when a
  /// notification handler sends the event (the queue is suspended: waiting for it would not end).
  @Test func anEventSentFromANotificationHandlerDoesNotWaitForItsOperationQueue() async {
    let (center, name) = Self.makeCenter()
    let queue = OperationQueue()
    queue.isSuspended = true
    let event = Event<Int>()
    let done = Expectation()
    event.addHandler(on: .operationQueue(queue)) { _ in done.fulfill() }
    center.observing(name).addHandler { _ in event.send(1) }
    center.post(name: name, object: nil)
    #expect(!done.isFulfilled)
    queue.isSuspended = false
    #expect(await done.wait(timeout: crossThreadDeadline))
  }
}
