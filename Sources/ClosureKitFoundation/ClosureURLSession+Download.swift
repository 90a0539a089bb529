public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

extension ClosureURLSession {
  /// Downloads a response body into a new file that the caller owns, reporting progress.
  ///
  /// ```swift
  /// let (file, response) = try await session.download(for: URLRequest(url: url)) { progress in
  ///   print(progress.fractionCompleted ?? 0)
  /// }
  /// try FileManager.default.moveItem(at: file, to: destination)
  /// ```
  ///
  /// The body is written as it arrives to a new file in `FileManager.default.temporaryDirectory`
  /// named `ClosureKit-<UUID>.download`. On failure or cancellation that file is deleted; nothing
  /// else is left behind (FoundationNetworking's download tasks leave `<UUID>.tmp` files in the
  /// temporary directory on Linux, so this method does not use one).
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - progress: Receives the bytes written so far after each chunk, on the session's delegate
  ///     queue.
  /// - Returns: The file (yours to move or delete) and the response. As with URLSession, an HTTP
  ///   error status is a response, not an error.
  /// - Throws: `URLError` if the transfer fails (`.cannotWriteToFile` if the file cannot be written),
  ///   `CancellationError` if the calling task is cancelled.
  ///
  /// > Important: Cancelling the calling task cancels the request and deletes the file.
  public func download(
    for request: URLRequest,
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> (URL, URLResponse) {
    try await download(for: request, in: FileManager.default.temporaryDirectory, progress: progress)
  }

  /// ``download(for:progress:)`` into `directory` instead of the temporary directory, so that tests
  /// each use a directory of their own.
  package func download(
    for request: URLRequest,
    in directory: URL,
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> (URL, URLResponse) {
    let file = directory.appendingPathComponent("ClosureKit-\(UUID().uuidString).download")
    guard FileManager.default.createFile(atPath: file.path, contents: nil),
      let handle = try? FileHandle(forWritingTo: file)
    else {
      throw URLError(.cannotCreateFile, userInfo: [NSURLErrorFailingURLErrorKey: file])
    }
    let writer = FileWriter(handle: handle)
    let outcome = ResponseWaiter()
    let cancelled = CancellationFlag()
    let taskBox = TaskBox()
    let task = dataTask(
      with: request,
      handlers: URLTaskHandlers(
        data: { chunk in
          if !writer.write(chunk) { taskBox.cancel() }
        },
        downloadProgress: progress,
        completion: { result in
          let wrote = writer.close()
          switch result {
          case .success(let response) where wrote:
            outcome.succeed(response)
          case .success:
            outcome.fail(URLError(.cannotWriteToFile, userInfo: [NSURLErrorFailingURLErrorKey: file]))
          case .failure(let error) where !wrote:
            outcome.fail(URLError(.cannotWriteToFile, userInfo: [NSUnderlyingErrorKey: error]))
          case .failure(let error):
            outcome.fail(cancelled.isSet ? CancellationError() : error)
          }
        }
      )
    )
    let cancelTask = safeCancellation(of: task)
    taskBox.set(cancelTask)
    task.resume()
    do {
      let response = try await withTaskCancellationHandler {
        try await outcome.wait()
      } onCancel: {
        cancelled.set()
        cancelTask()
      }
      return (file, response)
    } catch {
      try? FileManager.default.removeItem(at: file)
      throw error
    }
  }
}
