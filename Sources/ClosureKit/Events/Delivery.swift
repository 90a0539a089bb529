public import Dispatch

/// Where a handler runs.
///
/// ```swift
/// event.addHandler { print("on the sending thread", $0) }
/// event.addHandler(on: .queue(.global())) { print("on a global queue", $0) }
/// event.addHandler(on: .mainActor) { print("on the main actor", $0) }
/// ```
///
/// > Important: With ``immediate`` the handler runs synchronously on the thread that sends,
/// > in registration order, outside any lock. With ``queue(_:)`` and ``mainActor`` it runs
/// > asynchronously, in send order for each handler (on a serial queue); a delivery that has not
/// > started when its subscription is cancelled never starts.
public struct Delivery: Sendable {
  /// How a delivery is carried out.
  @usableFromInline
  enum Kind: Sendable {
    /// Synchronously on the sending thread.
    case immediate
    /// Asynchronously on a dispatch queue.
    case queue(DispatchQueue)
    /// Asynchronously on the main actor (the main dispatch queue).
    case mainActor
    /// Asynchronously through a user-supplied scheduler.
    case custom(@Sendable (_ job: @escaping @Sendable () -> Void) -> Void)
  }

  @usableFromInline let kind: Kind

  @inlinable
  init(kind: Kind) {
    self.kind = kind
  }

  /// Runs the handler synchronously on the sending thread, in registration order. The default.
  ///
  /// ```swift
  /// event.addHandler(on: .immediate) { print($0) }
  /// ```
  @inlinable public static var immediate: Delivery { Delivery(kind: .immediate) }

  /// Runs the handler asynchronously on the main actor, in send order.
  ///
  /// ```swift
  /// event.addHandler(on: .mainActor) { value in print(value) }
  /// ```
  ///
  /// The handler is not isolated: for a `@MainActor` closure, register through the source's
  /// main-actor view instead (`event.onMainActor.addHandler { … }`), which delivers the same way.
  ///
  /// > Important: Always asynchronous, also when the send happens on the main actor, so the order
  /// > of deliveries never depends on the sending thread. On Linux the main actor's jobs run only
  /// > while the main thread serves them (`async` `main`, `dispatchMain()`, or a running RunLoop).
  @inlinable public static var mainActor: Delivery { Delivery(kind: .mainActor) }

  /// Runs the handler asynchronously on `queue`.
  ///
  /// ```swift
  /// let queue = DispatchQueue(label: "io")
  /// event.addHandler(on: .queue(queue)) { print($0) }
  /// ```
  ///
  /// - Parameter queue: The queue. On a serial queue a handler's deliveries keep send order.
  /// - Returns: The delivery.
  @inlinable public static func queue(_ queue: DispatchQueue) -> Delivery {
    Delivery(kind: .queue(queue))
  }

  /// Runs the handler through your own scheduler: `schedule` receives a job and must run it
  /// exactly once, later, on the thread or executor it chooses.
  ///
  /// ```swift
  /// let operations = OperationQueue()
  /// event.addHandler(on: .scheduled { job in operations.addOperation(job) }) { print($0) }
  /// ```
  ///
  /// - Parameter schedule: Called on the sending thread with each delivery's job.
  /// - Returns: The delivery.
  ///
  /// > Important: The job checks, when it starts, whether its subscription was cancelled, and then
  /// > does nothing; a scheduler that drops jobs instead loses deliveries silently.
  public static func scheduled(
    by schedule: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Void
  ) -> Delivery {
    Delivery(kind: .custom(schedule))
  }

  /// Whether handlers run synchronously on the sending thread.
  @inlinable
  package var isImmediate: Bool {
    if case .immediate = kind { return true }
    return false
  }

  /// Runs `job` as this delivery says.
  @usableFromInline
  package func execute(_ job: @escaping @Sendable () -> Void) {
    switch kind {
    case .immediate:
      job()
    case .queue(let queue):
      queue.async(execute: job)
    case .mainActor:
      DispatchQueue.main.async(execute: job)
    case .custom(let schedule):
      schedule(job)
    }
  }
}
