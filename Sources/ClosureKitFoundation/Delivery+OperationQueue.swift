public import ClosureKit
public import Foundation

extension Delivery {
  /// Runs the handler as an operation on `queue`.
  ///
  /// ```swift
  /// let operations = OperationQueue()
  /// operations.maxConcurrentOperationCount = 1
  /// event.addHandler(on: .operationQueue(operations)) { print($0) }
  /// ```
  ///
  /// - Parameter queue: The operation queue. With `maxConcurrentOperationCount == 1` a handler's
  ///   deliveries keep send order.
  /// - Returns: The delivery.
  ///
  /// > Important: Asynchronous for every source but one: a `NotificationCenter` handler
  /// > (`observing(_:object:)`) has run when `post` returns, as an observer added with Foundation's
  /// > `addObserver(forName:object:queue:using:)` has: `post` adds the operation and waits for it,
  /// > or runs the handler at once if it is called on `queue` itself (tested by
  /// > `NotificationOperationQueueTests`, corelibs' `test_observeOnSpecificQueue*` cases). A
  /// > delivery whose subscription is cancelled before its operation starts does nothing.
  public static func operationQueue(_ queue: OperationQueue) -> Delivery {
    .scheduled { job in OperationQueueDelivery.schedule(job, on: queue) }
  }

  /// This delivery, made to wait for its `.operationQueue` operations while a notification is
  /// posted (see ``OperationQueueDelivery``); `.immediate` is returned as it is.
  var waitingForOperationQueues: Delivery {
    guard !isImmediate else { return self }
    return .scheduled { [self] job in
      OperationQueueDelivery.isPosting.withValue(true) { execute(job) }
    }
  }
}

/// How `.operationQueue` deliveries are carried out: added to their queue, and, while a
/// `NotificationCenter` post schedules them, waited for as Foundation's `post` waits for an
/// observer added with `addObserver(forName:object:queue:using:)`.
///
/// The notification relays register every queued delivery through
/// `Delivery.waitingForOperationQueues`, which sets ``isPosting`` on the posting thread only while
/// it schedules that one handler's job: an `.operationQueue` scheduler reached then waits, any other
/// ignores the flag, and nothing the handlers do themselves runs with it set.
enum OperationQueueDelivery {
  /// Whether the scheduler is called by a notification post (bound by the relays' deliveries).
  /// A `TaskLocal` spelled out, not the `@TaskLocal` wrapper: the iOS 16.5 SDK's Swift module
  /// predates the macro, and its wrapper form is a mutable static there.
  static let isPosting = TaskLocal<Bool>(wrappedValue: false)

  /// Adds `job` to `queue`; during a post, waits until it has run, or runs it at once if called
  /// on `queue` itself (waiting there could never end: Foundation runs the block at once too).
  static func schedule(_ job: @escaping @Sendable () -> Void, on queue: OperationQueue) {
    guard isPosting.get() else { return queue.addOperation(job) }
    if isRunning(on: queue) {
      isPosting.withValue(false, operation: job)
    } else {
      queue.addOperations([BlockOperation(block: job)], waitUntilFinished: true)
    }
  }

  /// Whether the caller runs on `queue`: in one of its operations (Foundation's test), or, for the
  /// main queue, anywhere on the main dispatch queue. On Linux, once the main thread has called
  /// `dispatchMain()` (Swift Testing does), the main queue and the main actor run on another
  /// thread, where `OperationQueue.current` is `nil`: a post from the main actor would otherwise
  /// wait for the main queue it holds.
  static func isRunning(on queue: OperationQueue) -> Bool {
    if OperationQueue.current === queue { return true }
    guard queue === OperationQueue.main else { return false }
    return Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMarker.key) == true
  }

  /// A key set on the main dispatch queue, the first time it is needed.
  private static let mainQueueMarker: MainQueueMarker = {
    let marker = MainQueueMarker()
    DispatchQueue.main.setSpecific(key: marker.key, value: true)
    return marker
  }()
}

/// The key that marks the main dispatch queue.
///
/// `@unchecked Sendable`: the key is a constant, only handed to `setSpecific` (once, when the
/// marker is made) and `getSpecific`, which libdispatch allows from any thread.
private final class MainQueueMarker: @unchecked Sendable {
  let key = DispatchSpecificKey<Bool>()
}
