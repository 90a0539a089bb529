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
  /// > Important: Asynchronous. A delivery whose subscription is cancelled before its operation
  /// > starts does nothing.
  public static func operationQueue(_ queue: OperationQueue) -> Delivery {
    .scheduled { job in queue.addOperation(job) }
  }
}
