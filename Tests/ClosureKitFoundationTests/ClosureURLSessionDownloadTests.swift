import ClosureKit
import ClosureKitFoundation
import ClosureKitTestServer
import ClosureKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The download files ClosureKit has left in the temporary directory.
func leftoverDownloads() -> Set<String> {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
  return Set(names.filter { $0.hasPrefix("ClosureKit-") && $0.hasSuffix(".download") })
}

@Suite(.serialized) struct ClosureURLSessionDownloadTests {
  @Test func downloadWritesTheBodyToAFileTheCallerOwnsAndReportsProgress() async throws {
    try await withServer { server in
      let session = makeSession()
      let progress = Locked<[TransferProgress]>([])
      let (file, response) = try await session.download(for: URLRequest(url: server.url("/bytes/500000"))) {
        value in progress.withLock { $0.append(value) }
      }
      defer { try? FileManager.default.removeItem(at: file) }
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      let data = try Data(contentsOf: file)
      #expect(data.count == 500_000)
      #expect(data.enumerated().allSatisfy { $0.element == patternByte($0.offset) })
      #expect(progress.withLock { $0.last } == TransferProgress(completedBytes: 500_000, expectedBytes: 500_000))
      #expect(leftoverDownloads() == [file.lastPathComponent])
      await invalidate(session)
    }
    #expect(leftoverDownloads().isEmpty)
  }

  @Test func downloadFailureThrowsATypedErrorAndDeletesThePartialFile() async throws {
    try await withServer { server in
      let session = makeSession()
      let error = await #expect(throws: URLError.self) {
        _ = try await session.download(for: URLRequest(url: server.url("/truncated/400000")))
      }
      #expect(error?.code == .networkConnectionLost)
      #expect(leftoverDownloads().isEmpty)
      await invalidate(session)
    }
  }

  @Test func cancellingADownloadThrowsCancellationErrorAndDeletesTheFile() async throws {
    try await withServer { server in
      let session = makeSession()
      let started = Expectation()
      let download = Task {
        try await session.download(for: URLRequest(url: server.url("/slow/100000/5"))) { _ in
          if !started.isFulfilled { started.fulfill() }
        }
      }
      #expect(await started.wait(timeout: .seconds(30)))
      download.cancel()
      let outcome = await download.result
      #expect(throws: CancellationError.self) { _ = try outcome.get() }
      #expect(leftoverDownloads().isEmpty)
      await invalidate(session)
    }
  }
}
