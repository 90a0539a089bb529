import ClosureKit
import ClosureKitFoundation
import ClosureKitTestServer
import ClosureKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ClosureURLSessionCancellationTests {
  /// FoundationNetworking stops the process when a `cancel()` is carried out after the task has
  /// completed (`TaskRegistry.swift:118`); before the fix, this child process died in every run
  /// with 200 rounds (6 of 6, loaded machine); with these 120 rounds, 3 of 5 on a lighter load.
  // The child process inherits the parent's libcurl sockets (they are not close-on-exec), so while
  // it runs, connections that other tests close stay open at their servers. Under a sanitizer it
  // ran for about a minute and those tests' 30 s checks failed; the normal run takes ~15 s.
  @Test(.disabled(if: isUnderSanitizer, "its child keeps other tests' connections open for too long"))
  func cancellingBytesAndDownloadsAtRandomMomentsNeverStopsTheProcess() async {
    await #expect(processExitsWith: .success) {
      try await raceCancellationsAgainstCompletion(rounds: 120, concurrency: 20)
    }
  }

  // Under ThreadSanitizer one of the 50 connections stayed open past the 30 s check, and requests
  // of tests running beside it timed out; not understood yet (see the report of issue 16).
  @Test(.disabled(if: isUnderSanitizer, "under ThreadSanitizer a cancelled request's connection stays open"))
  func aCancelledDownloadEitherReturnsItsFileOrThrowsCancellationErrorAndLeavesNothing() async throws {
    try await withTemporaryDirectory { directory in
      try await withServer { server in
        let session = ClosureURLSession()
        var kept: Set<String> = []
        for _ in 0..<50 {
          let download = Task {
            try await session.download(for: URLRequest(url: server.url("/bytes/2000")), in: directory).0
          }
          await spin(microseconds: Int.random(in: 0...3000))
          download.cancel()
          switch await download.result {
          case .success(let file): kept.insert(file.lastPathComponent)
          case .failure(let error): #expect(error is CancellationError)
          }
        }
        #expect(leftoverDownloads(in: directory) == kept)
        await invalidate(session)
      }
    }
  }
}

/// Starts `rounds` × `concurrency` requests on `/bytes/2000` (half `bytes(for:)`, half
/// `download(for:)`) and cancels each after a random 0–3 ms: some before the request starts, some
/// during the body, some after it completed.
func raceCancellationsAgainstCompletion(rounds: Int, concurrency: Int) async throws {
  try await withTemporaryDirectory { directory in
    try await raceCancellationsAgainstCompletion(rounds: rounds, concurrency: concurrency, directory: directory)
  }
}

func raceCancellationsAgainstCompletion(rounds: Int, concurrency: Int, directory: URL) async throws {
  let server = try LoopbackServer()
  let session = ClosureURLSession()
  for _ in 0..<rounds {
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<concurrency {
        group.addTask {
          let request = URLRequest(url: server.url("/bytes/2000"))
          let consumer = Task {
            if index.isMultiple(of: 2) {
              let (bytes, _) = try await session.bytes(for: request)
              for try await _ in bytes.chunks {}
            } else {
              _ = try await session.download(for: request, in: directory)
            }
          }
          await spin(microseconds: Int.random(in: 0...3000))
          consumer.cancel()
          _ = await consumer.result
        }
      }
    }
  }
  session.invalidateAndCancel()
  await server.stop()  // nothing above throws once the server is started
}

/// Lets `microseconds` pass, yielding: the random moment of a cancellation, not a wait for an event.
func spin(microseconds: Int) async {
  let deadline = ContinuousClock.now + .microseconds(microseconds)
  while ContinuousClock.now < deadline { await Task.yield() }
}
