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

@Suite(.network) struct ClosureURLSessionFaultTests {
  @Test func unsupportedSchemeIsATypedErrorAndCompletesOnce() async throws {
    let log = await run(URLRequest(url: URL(string: "gopher://127.0.0.1/")!))
    #expect(log.errorCode == .unsupportedURL)
    #expect(log.completionCount == 1)
  }

  @Test func refusedConnectionIsATypedErrorAndCompletesOnce() async throws {
    let server = try LoopbackServer()
    let closedPort = server.url("/bytes/1")
    await server.stop()
    let log = await run(URLRequest(url: closedPort))
    #expect(log.errorCode == .cannotConnectToHost)
    #expect(log.completionCount == 1)
  }

  @Test func serverClosingMidBodyIsNetworkConnectionLost() async throws {
    try await withServer { server in
      let log = await run(URLRequest(url: server.url("/truncated/400000")))
      #expect(log.errorCode == .networkConnectionLost)
      #expect(log.completionCount == 1)
      #expect(log.body.withLock { $0.count } == 200_000)
    }
  }

  @Test func timeoutIsTimedOutAndCompletesOnce() async throws {
    try await withServer { server in
      let log = await run(URLRequest(url: server.url("/never")), timeout: 0.3)
      #expect(log.errorCode == .timedOut)
      #expect(log.completionCount == 1)
    }
  }

  @Test func bytesForAnUnsupportedSchemeThrowsUnsupportedURL() async throws {
    await expectBytes(for: URL(string: "gopher://127.0.0.1/")!, toThrow: .unsupportedURL)
  }

  @Test func bytesForARefusedConnectionThrowsCannotConnectToHost() async throws {
    let server = try LoopbackServer()
    let closedPort = server.url("/bytes/1")
    await server.stop()
    await expectBytes(for: closedPort, toThrow: .cannotConnectToHost)
  }

  @Test func bytesThrowsTimedOutWhenTheServerNeverAnswers() async throws {
    try await withServer { server in
      await expectBytes(for: server.url("/never"), toThrow: .timedOut, timeout: 0.3)
    }
  }

  @Test func bytesThrowsNetworkConnectionLostWhenTheServerClosesMidBody() async throws {
    try await withServer { server in
      let session = makeSession()
      let (bytes, _) = try await session.bytes(for: URLRequest(url: server.url("/truncated/400000")))
      var count = 0
      let error = await #expect(throws: URLError.self) {
        for try await chunk in bytes.chunks { count += chunk.count }
      }
      #expect(error?.code == .networkConnectionLost)
      #expect(count == 200_000)
      await invalidate(session)
    }
  }

  @Test(arguments: ["/malformed/status-line", "/malformed/garbage", "/large-header/200000"])
  func aResponseThatIsNotReadableHTTPIsBadServerResponseAndKeepsTheUnderlyingError(path: String) async throws {
    try await withServer { server in
      let log = await run(URLRequest(url: server.url(path)))
      #expect(log.errorCode == .badServerResponse)
      #expect(log.completionCount == 1)
      guard case .failure(let error) = log.result else { return }
      let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
      #expect(underlying?.domain == NSURLErrorDomain)
      #expect(underlying.map { [NSURLErrorUnsupportedURL, NSURLErrorUnknown].contains($0.code) } == true)
      #expect(error.failingURL == server.url(path))
    }
  }

  @Test func aLargeButAcceptableResponseHeadIsAResponse() async throws {
    try await expectResponse(to: "/large-header/50000", status: 200, text: "large header")
  }

  @Test func bytesForAMalformedResponseThrowsBadServerResponse() async throws {
    try await withServer { server in
      await expectBytes(for: server.url("/malformed/status-line"), toThrow: .badServerResponse)
    }
  }

  @Test func downloadOfAnOversizedResponseHeadThrowsBadServerResponse() async throws {
    try await expectDownload(of: "/large-header/200000", toThrow: .badServerResponse)
  }
}
