#if canImport(FoundationNetworking)
  import Foundation
  public import FoundationNetworking
#else
  public import Foundation
#endif

extension ClosureURLSession {
  /// Starts a request and returns its response and its body as an asynchronous sequence of bytes.
  ///
  /// ```swift
  /// let (bytes, response) = try await session.bytes(for: URLRequest(url: url))
  /// for try await line in bytes.lines { print(line) }
  /// ```
  ///
  /// - Parameter request: The request.
  /// - Returns: The body, delivered as it arrives, and the response head.
  /// - Throws: `URLError` if the task fails before the response head arrives;
  ///   `CancellationError` if the calling task is cancelled (the request is then cancelled).
  ///
  /// > Important: Chunks are buffered from the moment the response arrives until they are read;
  /// > URLSession cannot be paused on Linux (suspending a running task restarts it), so a consumer
  /// > slower than the network lets the buffer grow. Cancelling the consuming task cancels the
  /// > request and makes the iteration throw `CancellationError`; dropping the sequence and every
  /// > iterator also cancels the request.
  public func bytes(for request: URLRequest) async throws -> (AsyncBytes, URLResponse) {
    let stream = ByteStream()
    let head = ResponseWaiter()
    let task = dataTask(
      with: request,
      handlers: URLTaskHandlers(
        response: { response in
          head.succeed(response)
          return .allow
        },
        data: { stream.append($0) },
        completion: { result in
          switch result {
          case .success(let response):
            head.succeed(response)
            stream.finish(nil)
          case .failure(let error):
            head.fail(error)
            stream.finish(error)
          }
        }
      )
    )
    let cancelTask = safeCancellation(of: task)
    stream.attach(cancellation: cancelTask)
    let consumer = ByteStreamConsumer(stream)
    task.resume()
    let response = try await withTaskCancellationHandler {
      try await head.wait()
    } onCancel: {
      head.fail(CancellationError())
      cancelTask()
    }
    return (AsyncBytes(consumer: consumer), response)
  }
}
