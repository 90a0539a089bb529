import ClosureKit

/// An object whose deallocation a delegate-adapter test observes through a `weak` reference.
final class DelegateTestObject: Sendable {
  let name: String
  init(_ name: String = "object") { self.name = name }
}

/// A thread-safe list that handlers of the delegate-adapter tests append to.
final class DelegateTestRecorder<Element: Sendable>: Sendable {
  private let storage = Locked<[Element]>([])
  var values: [Element] { storage.withLock { $0 } }
  func append(_ element: Element) { storage.withLock { $0.append(element) } }
}
