import ClosureKit
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A one-shot cell for the response head (`bytes(for:)`, `download(for:)`).
typealias ResponseWaiter = OutcomeWaiter<URLResponse>

/// A one-shot cell for an outcome: the first outcome wins, later ones are ignored.
final class OutcomeWaiter<Value: Sendable>: Sendable {
  struct State {
    /// The first outcome.
    var outcome: Result<Value, any Error>?
    /// The task waiting for it.
    var waiter: CheckedContinuation<Value, any Error>?
  }

  let state = Locked(State())

  func succeed(_ value: Value) { settle(.success(value)) }

  func fail(_ error: any Error) { settle(.failure(error)) }

  func settle(_ outcome: Result<Value, any Error>) {
    let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(with: outcome)
  }

  func wait() async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = state.withLock { state -> Result<Value, any Error>? in
        if let outcome = state.outcome { return outcome }
        state.waiter = continuation
        return nil
      }
      if let outcome { continuation.resume(with: outcome) }
    }
  }
}
