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

@Suite(.network) struct TransferProgressTests {
  @Test func fractionCompletedIsNilWhenTheSizeIsUnknownAndClampedToOne() {
    #expect(TransferProgress(completedBytes: 5, expectedBytes: nil).fractionCompleted == nil)
    #expect(TransferProgress(completedBytes: 5, expectedBytes: 0).fractionCompleted == nil)
    #expect(TransferProgress(completedBytes: 25, expectedBytes: 100).fractionCompleted == 0.25)
    #expect(TransferProgress(completedBytes: 200, expectedBytes: 100).fractionCompleted == 1)
  }

  @Test(.exitTest) func negativeCompletedBytesIsAPreconditionFailureNamingTheArgument() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = TransferProgress(completedBytes: -1, expectedBytes: nil)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("the argument `completedBytes` must not be negative"))
  }

  @Test func chunkedBodyReportsProgressWithoutAnExpectedSize() async throws {
    try await withServer { server in
      let log = await run(URLRequest(url: server.url("/slow/3/5")))
      let progress = log.downloadProgress.withLock { $0 }
      #expect(progress.last?.completedBytes == Int64("chunk 0\nchunk 1\nchunk 2\n".utf8.count))
      #expect(progress.allSatisfy { $0.expectedBytes == nil })
    }
  }

  @Test func contentEncodedBodyCountsDecodedBytesAndHasNoExpectedSize() async throws {
    try await withServer { server in
      let log = await run(URLRequest(url: server.url("/gzip/300000")))
      #expect(log.statusCode == 200)
      let body = log.body.withLock { $0 }
      #expect(body.count == 300_000)
      #expect(body.allSatisfy { $0 == 0 })
      let progress = log.downloadProgress.withLock { $0 }
      #expect(progress.count > 1)
      #expect(progress.last?.completedBytes == 300_000)
      #expect(progress.allSatisfy { $0.expectedBytes == nil && $0.fractionCompleted == nil })
    }
  }

  @Test func downloadOfAContentEncodedBodyWritesTheDecodedBytes() async throws {
    try await withServerAndDirectory { server, directory in
      let session = makeSession()
      let (file, response, progress) = try await session.downloadRecordingProgress(
        server.url("/gzip/300000"), in: directory)
      // The response still announces the encoded length, as on Apple platforms.
      #expect(response.expectedContentLength < 300_000)
      #expect(try Data(contentsOf: file).count == 300_000)
      #expect(progress.last == TransferProgress(completedBytes: 300_000, expectedBytes: nil))
      try FileManager.default.removeItem(at: file)
      await invalidate(session)
    }
  }
}
