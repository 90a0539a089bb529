import ClosureKit
import Dispatch

/// A count of events a test waits for, with a deadline instead of a sleep.
///
/// ```swift
/// let delivered = Expectation(count: 2)
/// event.addHandler(on: .queue(queue)) { _ in delivered.fulfill() }
/// event.send(1)
/// event.send(2)
/// #expect(await delivered.wait(timeout: .seconds(5)))
/// ```
///
/// > Important: Thread-safe: `fulfill()` may be called from any thread, any number of times.
/// > `wait(timeout:)` returns as soon as the count is reached, or `false` at the deadline; it never
/// > sleeps longer than needed.
public final class Expectation: Sendable {
  /// The number of fulfilments still expected, and the waiters to resume when it reaches 0.
  private struct State {
    var remaining: Int
    var fulfilled = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    var nextWaiter = 0
  }

  private let state: Locked<State>

  /// Creates an expectation that is met after `count` calls of ``fulfill()``.
  ///
  /// ```swift
  /// let done = Expectation()
  /// ```
  ///
  /// - Parameter count: How many fulfilments to wait for; at least 1.
  public init(count: Int = 1) {
    if count < 1 { failPrecondition("Expectation(count:): the argument `count` must be at least 1, got \(count)") }
    state = Locked(State(remaining: count))
  }

  /// Records one occurrence; the waiters resume when the expected count is reached.
  ///
  /// ```swift
  /// event.addHandler { _ in done.fulfill() }
  /// ```
  public func fulfill() {
    let resumed = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      state.fulfilled += 1
      state.remaining -= 1
      guard state.remaining == 0 else { return [] }
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in resumed { waiter.resume(returning: true) }
  }

  /// How many times ``fulfill()`` has been called.
  ///
  /// ```swift
  /// #expect(done.fulfillmentCount == 1)
  /// ```
  public var fulfillmentCount: Int {
    state.withLock { $0.fulfilled }
  }

  /// Whether the expected count has been reached.
  ///
  /// ```swift
  /// #expect(done.isFulfilled)
  /// ```
  public var isFulfilled: Bool {
    state.withLock { $0.remaining <= 0 }
  }

  /// Waits until the expected count is reached or the deadline passes.
  ///
  /// ```swift
  /// #expect(await done.wait(timeout: .seconds(5)))
  /// ```
  ///
  /// - Parameter timeout: The longest wait, on the real clock.
  /// - Returns: `true` if the count was reached, `false` if the deadline passed first.
  public func wait(timeout: Duration) async -> Bool {
    return await withCheckedContinuation { continuation in
      let waiter = state.withLock { state -> Int? in
        if state.remaining <= 0 { return nil }
        state.nextWaiter += 1
        state.waiters[state.nextWaiter] = continuation
        return state.nextWaiter
      }
      guard let waiter else {
        continuation.resume(returning: true)
        return
      }
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      Self.deadlines.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
        self.expire(waiter)
      }
    }
  }

  /// Where deadlines fire: a queue of its own, not a global one. On Linux the global queues' worker
  /// threads are the threads of Swift concurrency's global executor, so a deadline on them could
  /// not fire while the code under test kept every such thread busy (the case a deadline is for).
  private static let deadlines = DispatchQueue(label: "ClosureKitTesting.Expectation.deadlines")

  /// Resumes one waiter with `false` if it is still waiting.
  private func expire(_ waiter: Int) {
    let expired = state.withLock { $0.waiters.removeValue(forKey: waiter) }
    expired?.resume(returning: false)
  }
}
