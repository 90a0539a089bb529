import ClosureKit
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Appends chunks to a file handle, remembering the first failure.
final class FileWriter: Sendable {
  struct State {
    /// `nil` once closed.
    var handle: FileHandle?
    /// `false` after a write or close failed.
    var isHealthy = true
  }

  let state: Locked<State>

  init(handle: FileHandle) {
    state = Locked(State(handle: handle))
  }

  /// Writes `chunk`; `false` if this or an earlier write failed.
  func write(_ chunk: Data) -> Bool {
    state.withLock { state in
      guard state.isHealthy, let handle = state.handle else { return false }
      do {
        try handle.write(contentsOf: chunk)
      } catch {
        state.isHealthy = false
      }
      return state.isHealthy
    }
  }

  /// Closes the file; `true` if every write and the close succeeded. Idempotent.
  func close() -> Bool {
    state.withLock { state in
      if let handle = state.handle {
        do { try handle.close() } catch { state.isHealthy = false }
        state.handle = nil
      }
      return state.isHealthy
    }
  }
}

/// A flag set once, read from any thread.
final class CancellationFlag: Sendable {
  let flag = Locked(false)

  var isSet: Bool { flag.withLock { $0 } }

  func set() { flag.withLock { $0 = true } }
}

/// The cancellation of a task, for a closure created before the task existed.
final class TaskBox: Sendable {
  let cancellation = Locked<(@Sendable () -> Void)?>(nil)

  func set(_ cancellation: @escaping @Sendable () -> Void) { self.cancellation.withLock { $0 = cancellation } }

  func cancel() { cancellation.withLock { $0 }?() }
}
