import Synchronization

/// Keeps an object alive while a delegator holds it only weakly, until its final callback.
///
/// Many delegators hold their delegate `weak` (`XMLParser`, `URLSession`'s task delegates, UIKit's
/// dialogs). An adapter that nobody else references would be deallocated at once. Such an adapter
/// owns a `KeepAlive`, calls ``retain(_:)`` with itself when it is handed to the delegator, and
/// ``release()`` in the one callback that always comes last:
///
/// ```swift
/// final class Adapter: NSObject, XMLParserDelegate, @unchecked Sendable {
///   let keepAlive = KeepAlive()
///   func start(_ parser: XMLParser) {
///     parser.delegate = self
///     keepAlive.retain(self)            // self-retained until the final callback
///   }
///   func parserDidEndDocument(_ parser: XMLParser) {
///     keepAlive.release()               // the only strong reference goes away here
///   }
/// }
/// ```
///
/// A second ``release()`` does nothing, so an object can never be over-released. A release that
/// never comes is visible: ``isRetaining`` stays `true` and ``liveCount`` counts it.
///
/// > Important: Thread-safe. ``release()`` may run on any thread, also from inside a callback of
/// > the retained object itself: the object is released when the caller's own references go.
public final class KeepAlive: Sendable {
  /// How many objects all `KeepAlive`s in the process retain right now.
  private static let live = Atomic<Int>(0)

  /// The retained object; `nil` before ``retain(_:)`` and after ``release()``. It is never used,
  /// only kept, so it need not be `Sendable`.
  private let retained = Locked<AnyObject?>(nil)

  /// Creates a keep-alive that retains nothing yet.
  ///
  /// ```swift
  /// let keepAlive = KeepAlive()
  /// ```
  public init() {}

  deinit {
    if retained.withLock({ $0 }) != nil {
      Self.live.subtract(1, ordering: .relaxed)
    }
  }

  /// Retains `object` until ``release()``.
  ///
  /// ```swift
  /// keepAlive.retain(self)
  /// ```
  ///
  /// - Parameter object: The object to keep alive, usually the adapter that owns this keep-alive
  ///   (the cycle is intended and ends at ``release()``).
  ///
  /// > Important: Retaining while already retaining is a programmer error (a precondition
  /// > failure): every retain must be balanced by the final callback's release first. The object
  /// > is released (and may be deinitialised) on the thread that calls ``release()``.
  public func retain(_ object: AnyObject) {
    let wasEmpty = retained.withLock { retained -> Bool in
      guard retained == nil else { return false }
      retained = object
      return true
    }
    if !wasEmpty {
      failPrecondition("KeepAlive.retain(_:): the argument `object` is given while an object is still retained")
    }
    Self.live.add(1, ordering: .relaxed)
  }

  /// Releases the retained object, exactly once.
  ///
  /// ```swift
  /// func parserDidEndDocument(_ parser: XMLParser) { keepAlive.release() }
  /// ```
  ///
  /// - Returns: `true` if this call released the object; `false` if nothing was retained (a second
  ///   release, or a release without retain), which has no effect.
  ///
  /// > Important: Thread-safe: of several concurrent calls exactly one returns `true`.
  @discardableResult
  public func release() -> Bool {
    let object = retained.withLock { retained in
      defer { retained = nil }
      return retained
    }
    guard let object else { return false }
    Self.live.subtract(1, ordering: .relaxed)
    withExtendedLifetime(object) {}  // the last reference may go here, outside the lock
    return true
  }

  /// Whether an object is retained and waiting for its ``release()``.
  ///
  /// ```swift
  /// #expect(!adapter.keepAlive.isRetaining)
  /// ```
  public var isRetaining: Bool {
    retained.withLock { $0 != nil }
  }

  /// How many objects all keep-alives of the process retain right now, for tests and diagnostics:
  /// a number that does not return to its earlier value shows a release that never came.
  ///
  /// ```swift
  /// let before = KeepAlive.liveCount
  /// try parse()
  /// assert(KeepAlive.liveCount == before)
  /// ```
  public static var liveCount: Int {
    live.load(ordering: .relaxed)
  }
}
