import ClosureKit
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A one-shot cell for the response head: the first outcome wins, later ones are ignored.
final class ResponseWaiter: Sendable {
  struct State {
    /// The first outcome.
    var outcome: Result<URLResponse, any Error>?
    /// The task waiting for it.
    var waiter: CheckedContinuation<URLResponse, any Error>?
  }

  let state = Locked(State())

  func succeed(_ response: URLResponse) { settle(.success(response)) }

  func fail(_ error: any Error) { settle(.failure(error)) }

  private func settle(_ outcome: Result<URLResponse, any Error>) {
    let waiter = state.withLock { state -> CheckedContinuation<URLResponse, any Error>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(with: outcome)
  }

  func wait() async throws -> URLResponse {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = state.withLock { state -> Result<URLResponse, any Error>? in
        if let outcome = state.outcome { return outcome }
        state.waiter = continuation
        return nil
      }
      if let outcome { continuation.resume(with: outcome) }
    }
  }
}
