@testable import ClosureKit

/// A thread-safe counter for handlers.
final class Counter: Sendable {
  private let storage = Locked(0)
  var value: Int { storage.withLock { $0 } }
  func increment() { storage.withLock { $0 += 1 } }
}

/// A thread-safe list that handlers append to, to check order.
final class Recorder<Element: Sendable>: Sendable {
  private let storage = Locked<[Element]>([])
  var values: [Element] { storage.withLock { $0 } }
  func append(_ element: Element) { storage.withLock { $0.append(element) } }
}

/// An object whose deallocation a test can observe through a `weak` reference.
final class Tracked: Sendable {
  let name: String
  init(_ name: String = "tracked") { self.name = name }
}

/// A thread-safe optional slot, for a token that a handler refers to.
final class Slot<Value: Sendable>: Sendable {
  private let storage = Locked<Value?>(nil)
  var value: Value? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on a new operating-system thread (never the caller's, never a Dispatch worker) and
/// returns when it has finished.
func onNewThread(_ body: @escaping @Sendable () -> Void) {
  pthread_join(startThread(body), nil)
}
