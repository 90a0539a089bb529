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

@Suite(.network) struct ClosureURLSessionDownloadTests {
  @Test func downloadWritesTheBodyToAFileTheCallerOwnsAndReportsProgress() async throws {
    try await withServerAndDirectory { server, directory in
      let session = makeSession()
      let (file, response, progress) = try await session.downloadRecordingProgress(
        server.url("/bytes/500000"), in: directory)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      let data = try Data(contentsOf: file)
      #expect(data.count == 500_000)
      #expect(data.enumerated().allSatisfy { $0.element == patternByte($0.offset) })
      #expect(progress.last == TransferProgress(completedBytes: 500_000, expectedBytes: 500_000))
      #expect(leftoverDownloads(in: directory) == [file.lastPathComponent])
      await invalidate(session)
      // The file is the caller's: invalidating the session does not delete it.
      #expect(leftoverDownloads(in: directory) == [file.lastPathComponent])
      try FileManager.default.removeItem(at: file)
    }
  }

  @Test func downloadWithoutADirectoryWritesIntoTheTemporaryDirectory() async throws {
    try await withServer { server in
      let session = makeSession()
      let (file, _) = try await session.download(for: URLRequest(url: server.url("/bytes/10")))
      defer { try? FileManager.default.removeItem(at: file) }
      #expect(
        file.deletingLastPathComponent().standardizedFileURL
          == FileManager.default.temporaryDirectory.standardizedFileURL)
      #expect(file.lastPathComponent.hasPrefix("ClosureKit-") && file.pathExtension == "download")
      #expect(try Data(contentsOf: file).count == 10)
      await invalidate(session)
    }
  }

  @Test func downloadFailureThrowsATypedErrorAndDeletesThePartialFile() async throws {
    try await expectDownload(of: "/truncated/400000", toThrow: .networkConnectionLost)
  }

  @Test func cancellingADownloadThrowsCancellationErrorAndDeletesTheFile() async throws {
    try await withServerAndDirectory { server, directory in
      let session = makeSession()
      let started = Expectation()
      let download = Task {
        try await session.download(for: URLRequest(url: server.url("/slow/100000/5")), in: directory) { _ in
          if !started.isFulfilled { started.fulfill() }
        }
      }
      #expect(await started.wait(timeout: crossThreadDeadline))
      download.cancel()
      let outcome = await download.result
      #expect(throws: CancellationError.self) { _ = try outcome.get() }
      #expect(leftoverDownloads(in: directory).isEmpty)
      await invalidate(session)
    }
  }

  @Test func downloadsAreUnaffectedByOtherDownloadFilesInTheTemporaryDirectory() async throws {
    // A file like the ones a crashed program (or another test run) leaves behind.
    let stray = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ClosureKit-\(UUID().uuidString).download")
    #expect(FileManager.default.createFile(atPath: stray.path, contents: Data("stray".utf8)))
    defer { try? FileManager.default.removeItem(at: stray) }
    try await withServerAndDirectory { server, directory in
      let session = makeSession()
      _ = await #expect(throws: URLError.self) {
        _ = try await session.download(for: URLRequest(url: server.url("/truncated/1000")), in: directory)
      }
      #expect(leftoverDownloads(in: directory).isEmpty)
      await invalidate(session)
    }
    #expect(try Data(contentsOf: stray) == Data("stray".utf8), "a file ClosureKit did not create is left alone")
  }
}
