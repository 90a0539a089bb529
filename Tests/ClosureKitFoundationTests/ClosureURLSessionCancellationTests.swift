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

@Suite(.network) struct ClosureURLSessionCancellationTests {
  /// FoundationNetworking stops the process when a `cancel()` is carried out after the task has
  /// completed (`TaskRegistry.swift:118`); before the fix, this child process died in every run
  /// with 200 rounds (6 of 6, loaded machine); with these 120 rounds, 3 of 5 on a lighter load.
  // Under AddressSanitizer it runs 24 rounds, not 120: the child inherits the sockets libcurl has
  // open in this process when it starts (libcurl does not make them close-on-exec:
  // Scripts/repro/libcurl-cloexec), so the connections of tests running beside it stay open at
  // their servers until the child exits, and 120 rounds took 101 s there (their checks wait 30 s).
  // Not under ThreadSanitizer, where the child process hangs in the Swift runtime, not in
  // ClosureKit (issue 28 item 4; Networking.md, "Linux (FoundationNetworking) findings"): every
  // thread of the loopback server, one per connection (1,566 after 10 minutes), waits in
  // `swift_once` (the Linux `ulock`, a priority-inheritance futex whose owner is a thread id cached
  // in thread-local storage) while it instantiates `Range`'s metadata cache, and the lock's word
  // names a thread that is itself waiting for the lock. Scripts/repro/tsan-swift-once shows the
  // stall without ClosureKit: 60 such threads take 28 to 59 s under ThreadSanitizer, 0.4 s plain.
  @Test(
    .heavyExitTest,
    .disabled(if: isUnderThreadSanitizer, "the child hangs in the Swift runtime's swift_once under ThreadSanitizer"))
  func cancellingBytesAndDownloadsAtRandomMomentsNeverStopsTheProcess() async {
    await #expect(processExitsWith: .success) {
      try await raceCancellationsAgainstCompletion(rounds: isUnderAddressSanitizer ? 24 : 120, concurrency: 20)
    }
  }

  // Runs under AddressSanitizer (7.6 s; 1.6 s plain). Not under ThreadSanitizer, where it passed
  // alone after 16, 22 and 30 s, and beside other tests left a connection open past its 30 s check
  // (issue 16's report): the same runtime stall as above, not ClosureKit's. 39 to 43 of the 50
  // connections stay open after the loop because their server threads (42 in one thread dump) wait
  // in `swift_once` inside `swift_getTupleTypeMetadata`, called from `Range.map` in the server's
  // `sendBytes`. The process spins at 93 % CPU with every thread in `rt_mutex_schedule`, and the
  // threads go on after 15 to 28 s.
  @Test(.disabled(if: isUnderThreadSanitizer, "under ThreadSanitizer its server threads stall 15-28 s in swift_once"))
  func aCancelledDownloadEitherReturnsItsFileOrThrowsCancellationErrorAndLeavesNothing() async throws {
    try await withServerAndDirectory { server, directory in
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
