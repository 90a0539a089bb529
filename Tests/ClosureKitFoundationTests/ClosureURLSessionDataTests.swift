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

/// Foundation's shapes: `data(for:)` and `dataTask(with:completion:)` with the body.
@Suite(.network) struct ClosureURLSessionDataTests {
  @Test func dataForReturnsTheBodyAndTheResponse() async throws {
    try await withServer { server in
      let session = makeSession()
      let (data, response) = try await session.data(for: URLRequest(url: server.url("/bytes/300000")))
      #expect(data.count == 300_000)
      #expect(data.enumerated().allSatisfy { $0.element == patternByte($0.offset) })
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      // An HTTP error status is a response, as in Foundation.
      let (body, notFound) = try await session.data(from: server.url("/status/404"))
      #expect((notFound as? HTTPURLResponse)?.statusCode == 404)
      #expect(String(decoding: body, as: UTF8.self) == "status 404")
      await invalidate(session)
    }
  }

  @Test func theCompletionFormDeliversTheWholeBodyOnce() async throws {
    try await withServer { server in
      let session = makeSession()
      let results = Locked<[Result<(Data, URLResponse), URLError>]>([])
      let completed = Expectation()
      session.dataTask(with: URLRequest(url: server.url("/lines/3"))) { result in
        results.withLock { $0.append(result) }
        completed.fulfill()
      }.resume()
      #expect(await completed.wait(timeout: crossThreadDeadline))
      await invalidate(session)
      let all = results.withLock { $0 }
      #expect(all.count == 1)
      let (data, response) = try #require(try all.first?.get())
      #expect(String(decoding: data, as: UTF8.self) == "line 0\nline 1\nline 2\n")
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
  }

  @Test func theCompletionFormReportsACancelledTaskAsURLErrorCancelled() async throws {
    try await withServer { server in
      let session = makeSession()
      let codes = Locked<[URLError.Code]>([])
      let completed = Expectation()
      let task = session.dataTask(with: URLRequest(url: server.url("/never"))) { result in
        if case .failure(let error) = result { codes.withLock { $0.append(error.code) } }
        completed.fulfill()
      }
      task.resume()
      task.cancel()
      #expect(await completed.wait(timeout: crossThreadDeadline))
      await invalidate(session)
      #expect(codes.withLock { $0 } == [.cancelled])
    }
  }

  @Test func cancellingTheCallingTaskCancelsTheRequest() async throws {
    try await withServer { server in
      let session = makeSession()
      let request = Task { try await session.data(for: URLRequest(url: server.url("/never"))) }
      request.cancel()
      await #expect(throws: CancellationError.self) { try await request.value }
      await invalidate(session)
    }
  }

  @Test func theFeedRouteGrowsByOneItemPerRequest() async throws {
    try await withServer { server in
      let session = makeSession()
      var titles: [Int] = []
      for _ in 1...4 {
        let (data, _) = try await session.data(from: server.url("/feed/3"))
        titles.append(String(decoding: data, as: UTF8.self).components(separatedBy: "<item>").count - 1)
      }
      #expect(titles == [1, 2, 3, 3])
      await invalidate(session)
    }
  }
}
