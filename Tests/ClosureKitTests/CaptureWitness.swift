import ClosureKitTestSupport

/// Proves that a handler was released: ``capturing(_:)`` wraps a handler so that it holds a fresh
/// object, and ``isReleased`` says whether that object is gone (DESIGN.md: what a handler captured
/// is released when the handler ends).
///
/// ```swift
/// let witness = CaptureWitness()
/// let token = ClosureTimer.perform(after: .seconds(1), clock: clock, witness.capturing { calls.increment() })
/// token.cancel()
/// #expect(witness.isReleased)
/// ```
///
/// `@unchecked Sendable`: `captured` is written once, by `capturing`, before the handler is handed
/// to the source, and read by the test's own thread after the source has let the handler go.
final class CaptureWitness: @unchecked Sendable {
  /// The object the wrapped handler holds; `nil` once the handler is released.
  private weak var captured: Tracked?

  /// Whether the object the handler captured has been released.
  var isReleased: Bool { captured == nil }

  /// Returns a handler that runs `body` and holds a new object until the handler is released.
  func capturing(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let object = holding()
    return { withExtendedLifetime(object) { body() } }
  }

  /// Returns a handler that runs `body` and holds a new object until the handler is released.
  func capturing<Argument>(
    _ body: @escaping @Sendable (Argument) -> Void
  ) -> @Sendable (Argument) -> Void {
    let object = holding()
    return { argument in withExtendedLifetime(object) { body(argument) } }
  }

  /// Returns a handler that runs `body` and holds a new object until the handler is released.
  func capturing<First, Second>(
    _ body: @escaping @Sendable (First, Second) -> Void
  ) -> @Sendable (First, Second) -> Void {
    let object = holding()
    return { first, second in withExtendedLifetime(object) { body(first, second) } }
  }

  /// Returns a new object named `name`, remembered weakly: for a value that something else holds
  /// (an associated value), whose release ``isReleased`` then tells.
  func makeObject(_ name: String = "tracked") -> Tracked {
    let object = Tracked(name)
    captured = object
    return object
  }

  /// A new object, remembered weakly.
  private func holding() -> Tracked { makeObject() }
}
