import ClosureKit
import ClosureKitFoundation
import ClosureKitTestServer
import ClosureKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct TransferProgressTests {
  @Test func fractionCompletedIsNilWhenTheSizeIsUnknownAndClampedToOne() {
    #expect(TransferProgress(completedBytes: 5, expectedBytes: nil).fractionCompleted == nil)
    #expect(TransferProgress(completedBytes: 5, expectedBytes: 0).fractionCompleted == nil)
    #expect(TransferProgress(completedBytes: 25, expectedBytes: 100).fractionCompleted == 0.25)
    #expect(TransferProgress(completedBytes: 200, expectedBytes: 100).fractionCompleted == 1)
  }

  @Test func negativeCompletedBytesIsAPreconditionFailureNamingTheArgument() async {
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
}
