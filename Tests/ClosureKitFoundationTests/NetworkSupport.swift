import ClosureKit
import ClosureKitFoundation
import ClosureKitTestServer
import ClosureKitTestSupport
import ClosureKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A thread-safe list of what a task's closures saw.
final class NetworkLog: Sendable {
  let events = Locked<[String]>([])
  let body = Locked<[UInt8]>([])
  let results = Locked<[Result<URLResponse, URLError>]>([])
  let downloadProgress = Locked<[TransferProgress]>([])
  let uploadProgress = Locked<[TransferProgress]>([])
  let completed = Expectation()

  func note(_ event: String) { events.withLock { $0.append(event) } }

  /// Closures that record everything; `configure` adds or replaces some.
  func handlers(_ configure: (inout URLTaskHandlers) -> Void = { _ in }) -> URLTaskHandlers {
    var handlers = URLTaskHandlers(
      data: { [self] chunk in body.withLock { $0 += chunk } },
      uploadProgress: { [self] progress in uploadProgress.withLock { $0.append(progress) } },
      downloadProgress: { [self] progress in downloadProgress.withLock { $0.append(progress) } },
      completion: { [self] result in
        results.withLock { $0.append(result) }
        completed.fulfill()
      }
    )
    configure(&handlers)
    return handlers
  }

  var text: String { String(decoding: body.withLock { $0 }, as: UTF8.self) }
  var completionCount: Int { results.withLock { $0.count } }
  var result: Result<URLResponse, URLError>? { results.withLock { $0.first } }
  var statusCode: Int? { (try? result?.get() as? HTTPURLResponse)?.statusCode }
  var errorCode: URLError.Code? {
    guard case .failure(let error) = result else { return nil }
    return error.code
  }
}

/// A session with short timeouts for tests.
func makeSession(timeout: TimeInterval = 120) -> ClosureURLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.timeoutIntervalForRequest = timeout
  return ClosureURLSession(configuration: configuration)
}

extension ClosureURLSession {
  /// Downloads `url` into `directory`, recording every progress report; returns the file, the
  /// response and the reports.
  func downloadRecordingProgress(
    _ url: URL, in directory: URL
  ) async throws -> (file: URL, response: URLResponse, progress: [TransferProgress]) {
    let progress = Locked<[TransferProgress]>([])
    let (file, response) = try await download(for: URLRequest(url: url), in: directory) { value in
      progress.withLock { $0.append(value) }
    }
    return (file, response, progress.withLock { $0 })
  }
}

/// Runs one data task to completion and invalidates the session; the log then holds everything.
func run(
  _ request: URLRequest,
  timeout: TimeInterval = 120,
  _ configure: (inout URLTaskHandlers) -> Void = { _ in }
) async -> NetworkLog {
  let log = NetworkLog()
  let session = makeSession(timeout: timeout)
  session.dataTask(with: request, handlers: log.handlers(configure)).resume()
  #expect(await log.completed.wait(timeout: crossThreadDeadline))
  await invalidate(session)
  return log
}

/// Invalidates `session` and waits until URLSession has finished with it: any second completion
/// would have run by then.
func invalidate(_ session: ClosureURLSession) async {
  let invalidated = Expectation()
  session.whenInvalidated { invalidated.fulfill() }
  session.finishTasksAndInvalidate()
  #expect(await invalidated.wait(timeout: crossThreadDeadline))
  #expect(session.pendingTaskCount == 0)
}

/// Expects a data task to the test server's `path`, with closures that record everything, to end
/// with a response of `status` and a body of `text`.
func expectResponse(
  to path: String, status: Int, text: String, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  try await withServer { server in
    let log = await run(URLRequest(url: server.url(path)))
    #expect(log.statusCode == status, sourceLocation: sourceLocation)
    #expect(log.text == text, sourceLocation: sourceLocation)
  }
}

/// Expects `bytes(for:)` of `url`, on a new session whose requests time out after `timeout`, to
/// throw a `URLError` with `code`; then invalidates the session.
func expectBytes(
  for url: URL, toThrow code: URLError.Code, timeout: TimeInterval = 120,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let session = makeSession(timeout: timeout)
  let error = await #expect(throws: URLError.self, sourceLocation: sourceLocation) {
    _ = try await session.bytes(for: URLRequest(url: url))
  }
  #expect(error?.code == code, sourceLocation: sourceLocation)
  await invalidate(session)
}

/// Expects `download(for:in:)` of the test server's `path` to throw a `URLError` with `code` and
/// to leave no file in its directory; then invalidates the session.
func expectDownload(
  of path: String, toThrow code: URLError.Code, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  try await withServerAndDirectory { server, directory in
    let session = makeSession()
    let error = await #expect(throws: URLError.self, sourceLocation: sourceLocation) {
      _ = try await session.download(for: URLRequest(url: server.url(path)), in: directory)
    }
    #expect(error?.code == code, sourceLocation: sourceLocation)
    #expect(leftoverDownloads(in: directory).isEmpty, sourceLocation: sourceLocation)
    await invalidate(session)
  }
}

/// The byte at `offset` of the server's `/bytes/N` body.
func patternByte(_ offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset) }

/// Starts a loopback server for one test and stops it at the end, also if the test throws.
func withServer<T>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
  let server = try LoopbackServer()
  let result: T
  do {
    result = try await body(server)
  } catch {
    await server.stop()
    throw error
  }
  #expect(await server.wait(until: { $0.openConnectionCount == 0 }), "a connection was left open")
  await server.stop()
  return result
}

/// Runs `body` with a new empty directory of its own and deletes it afterwards, so that files other
/// tests (or other programs) leave in the temporary directory cannot change the outcome.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("closurekit-test-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try await body(directory)
}

/// Runs `body` with a loopback server and a new empty directory of its own: `withServer(_:)`
/// inside `withTemporaryDirectory(_:)`.
func withServerAndDirectory<T>(_ body: (LoopbackServer, URL) async throws -> T) async throws -> T {
  try await withTemporaryDirectory { directory in
    try await withServer { server in try await body(server, directory) }
  }
}

/// The download files ClosureKit has left in `directory`.
func leftoverDownloads(in directory: URL) -> Set<String> {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
  return Set(names.filter { $0.hasPrefix("ClosureKit-") && $0.hasSuffix(".download") })
}
