import ClosureKit
import Foundation

/// A value handed to another thread once, so that the sender keeps no reference to it.
final class HandOff<Value: Sendable>: Sendable {
  private let value: Locked<Value?>
  init(_ value: Value) { self.value = Locked(value) }
  /// The value, the first time; `nil` afterwards.
  func take() -> Value? { value.withLock { $0.take() } }
}

/// One terminal dialog at a time per process.
let terminalSessionLock = NSLock()
