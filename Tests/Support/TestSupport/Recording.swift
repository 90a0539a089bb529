internal import ClosureKit

/// A thread-safe counter for handlers.
public final class Counter: Sendable {
  private let storage = Locked(0)

  public init() {}

  /// The count so far.
  public var value: Int { storage.withLock { $0 } }

  /// Adds one.
  public func increment() { storage.withLock { $0 += 1 } }
}

/// A thread-safe list that handlers append to, to check order.
public final class Recorder<Element: Sendable>: Sendable {
  private let storage = Locked<[Element]>([])

  public init() {}

  /// The elements appended so far, in order.
  public var values: [Element] { storage.withLock { $0 } }

  /// Appends `element`.
  public func append(_ element: Element) { storage.withLock { $0.append(element) } }
}

/// An object whose deallocation a test can observe through a `weak` reference.
public final class Tracked: Sendable {
  public let name: String

  public init(_ name: String = "tracked") { self.name = name }
}

/// A thread-safe optional slot, for a token that a handler refers to.
public final class Slot<Value: Sendable>: Sendable {
  private let storage = Locked<Value?>(nil)

  public init() {}

  /// The value held, if any.
  public var value: Value? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}
