import ClosureKit

#if canImport(FoundationNetworking)
  public import Foundation
  public import FoundationNetworking
#else
  public import Foundation
#endif

extension ClosureURLSession {
  /// Creates a data task that collects the whole body and hands it, with the response, to
  /// `completion`: Foundation's `dataTask(with:completionHandler:)`, with a `Result`. Call
  /// `resume()` to start it.
  ///
  /// ```swift
  /// let session = ClosureURLSession()
  /// let task = session.dataTask(with: URLRequest(url: url)) { result in
  ///   switch result {
  ///   case .success(let (data, response)): print(response, data.count, "bytes")
  ///   case .failure(let error): print("failed:", error.code)
  ///   }
  /// }
  /// task.resume()
  /// ```
  ///
  /// The ``dataTask(with:handlers:)`` form stays for everything else (progress, redirects,
  /// challenges, the body chunk by chunk); its completion receives only the response because the
  /// body went to its `data` closure.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - completion: Receives the body and the response, or the `URLError` that ended the task.
  /// - Returns: The task, suspended, as URLSession creates it.
  ///
  /// > Important: `completion` runs exactly once after `resume()`, on the session's delegate
  /// > queue, also on `cancel()` (with `URLError.cancelled`) and on invalidation (tested by
  /// > `ClosureURLSessionDataTests.theCompletionFormDeliversTheWholeBodyOnce`); then the closure is
  /// > released. The body is held in memory until then: for large bodies use
  /// > ``bytes(for:)`` or ``download(for:progress:)``.
  public func dataTask(
    with request: URLRequest,
    completion: @escaping @Sendable (Result<(Data, URLResponse), URLError>) -> Void
  ) -> URLSessionDataTask {
    let body = Locked(Data())
    return dataTask(
      with: request,
      handlers: URLTaskHandlers(
        data: { chunk in body.withLock { $0.append(chunk) } },
        completion: { result in
          completion(result.map { response in (body.withLock { $0 }, response) })
        }
      )
    )
  }

  /// Downloads the body of a request into memory: Foundation's `data(for:)`.
  ///
  /// ```swift
  /// let session = ClosureURLSession()
  /// let (data, response) = try await session.data(for: URLRequest(url: url))
  /// print((response as? HTTPURLResponse)?.statusCode ?? 0, data.count)
  /// ```
  ///
  /// - Parameter request: The request.
  /// - Returns: The whole body and the response.
  /// - Throws: The `URLError` that ended the task; `CancellationError` if the calling task is
  ///   cancelled (the request is then cancelled), as ``bytes(for:)`` does.
  ///
  /// > Important: Safe from any task. An HTTP error status is a response, not an error, as in
  /// > Foundation (tested by `ClosureURLSessionDataTests.dataForReturnsTheBodyAndTheResponse` and
  /// > `ClosureURLSessionDataTests.cancellingTheCallingTaskCancelsTheRequest`).
  public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
    let outcome = OutcomeWaiter<(Data, URLResponse)>()
    let task = dataTask(with: request) { result in
      outcome.settle(result.mapError { $0 })
    }
    let cancelTask = safeCancellation(of: task)
    task.resume()
    return try await withTaskCancellationHandler {
      try await outcome.wait()
    } onCancel: {
      outcome.fail(CancellationError())
      cancelTask()
    }
  }

  /// Downloads the body at a URL into memory: Foundation's `data(from:)`.
  ///
  /// ```swift
  /// let (data, _) = try await ClosureURLSession().data(from: url)
  /// ```
  ///
  /// - Parameter url: The URL, requested with `GET`.
  /// - Returns: The whole body and the response.
  /// - Throws: As ``data(for:)``.
  ///
  /// > Important: As ``data(for:)``.
  public func data(from url: URL) async throws -> (Data, URLResponse) {
    try await data(for: URLRequest(url: url))
  }
}
