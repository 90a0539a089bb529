import ClosureKitFoundation
import ClosureKitTestServer
import ClosureKitTestSupport
import ClosureKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.network) struct LoopbackServerTests {
  @Test func serverListensOnLoopbackWithAnEphemeralPort() throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    #expect(server.port > 0)
    #expect(server.baseURL.host == "127.0.0.1")
  }

  @Test func stopClosesOpenConnectionsAndIsIdempotent() async throws {
    let server = try LoopbackServer()
    let log = NetworkLog()
    let session = makeSession()
    session.dataTask(with: URLRequest(url: server.url("/never")), handlers: log.handlers()).resume()
    #expect(await server.wait(until: { $0.openConnectionCount == 1 }))
    await server.stop()
    await server.stop()
    #expect(server.openConnectionCount == 0)
    #expect(await log.completed.wait(timeout: crossThreadDeadline))
    #expect(log.completionCount == 1)
    #expect(log.errorCode != nil)
    await invalidate(session)
  }
}
