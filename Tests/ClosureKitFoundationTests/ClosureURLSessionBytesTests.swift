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

@Suite(.network) struct ClosureURLSessionBytesTests {
  @Test func bytesDeliversTheWholeBodyInOrder() async throws {
    try await withServer { server in
      let session = makeSession()
      let (bytes, response) = try await session.bytes(for: URLRequest(url: server.url("/bytes/200000")))
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(response.expectedContentLength == 200_000)
      var offset = 0
      var mismatches = 0
      for try await byte in bytes {
        if byte != patternByte(offset) { mismatches += 1 }
        offset += 1
      }
      #expect(offset == 200_000)
      #expect(mismatches == 0)
      await invalidate(session)
    }
  }

  @Test func chunksConcatenateToTheBodyAndAreNeverEmpty() async throws {
    try await withServer { server in
      let session = makeSession()
      let (bytes, _) = try await session.bytes(for: URLRequest(url: server.url("/bytes/200000")))
      var body: [UInt8] = []
      var emptyChunks = 0
      for try await chunk in bytes.chunks {
        if chunk.isEmpty { emptyChunks += 1 }
        body += chunk
      }
      #expect(body.count == 200_000)
      #expect(body.enumerated().allSatisfy { $0.element == patternByte($0.offset) })
      #expect(emptyChunks == 0)
      await invalidate(session)
    }
  }

  @Test func linesSplitOnEveryTerminatorAndKeepEmptyLines() async throws {
    try await withServer { server in
      let session = makeSession()
      var request = URLRequest(url: server.url("/reflect"))
      request.httpMethod = "POST"
      request.httpBody = Data("a\r\nb\rc\n\nd é\n".utf8)
      let (bytes, _) = try await session.bytes(for: request)
      var lines: [String] = []
      for try await line in bytes.lines { lines.append(line) }
      #expect(lines == ["a", "b", "c", "", "d é"])
      await invalidate(session)
    }
  }

  @Test func linesOfALongStreamArriveInOrder() async throws {
    try await withServer { server in
      let session = makeSession()
      let (bytes, _) = try await session.bytes(for: URLRequest(url: server.url("/lines/20000")))
      var count = 0
      var ordered = true
      for try await line in bytes.lines {
        if line != "line \(count)" { ordered = false }
        count += 1
      }
      #expect(count == 20_000)
      #expect(ordered)
      await invalidate(session)
    }
  }

  @Test func httpErrorStatusIsReturnedAsAResponseWithItsBody() async throws {
    try await withServer { server in
      let session = makeSession()
      let (bytes, response) = try await session.bytes(for: URLRequest(url: server.url("/status/404")))
      #expect((response as? HTTPURLResponse)?.statusCode == 404)
      var text = ""
      for try await line in bytes.lines { text += line }
      #expect(text == "status 404")
      await invalidate(session)
    }
  }

  @Test func cancellingTheConsumingTaskCancelsTheRequestAndThrowsCancellationError() async throws {
    try await withServer { server in
      let session = makeSession()
      let firstLine = Expectation()
      let consumer = Task {
        let (bytes, _) = try await session.bytes(for: URLRequest(url: server.url("/slow/100000/5")))
        for try await _ in bytes.lines {
          if !firstLine.isFulfilled { firstLine.fulfill() }
        }
      }
      #expect(await firstLine.wait(timeout: crossThreadDeadline))
      consumer.cancel()
      let outcome = await consumer.result
      #expect(throws: CancellationError.self) { try outcome.get() }
      #expect(await server.wait(until: { $0.openConnectionCount == 0 }))
      await invalidate(session)
    }
  }

  @Test func cancellingBeforeTheResponseThrowsCancellationError() async throws {
    try await withServer { server in
      let session = makeSession()
      let consumer = Task {
        _ = try await session.bytes(for: URLRequest(url: server.url("/never")))
      }
      #expect(await server.wait(until: { $0.requestTargets.contains("/never") }))
      consumer.cancel()
      let outcome = await consumer.result
      #expect(throws: CancellationError.self) { try outcome.get() }
      await invalidate(session)
    }
  }

  @Test func droppingTheSequenceCancelsTheRequest() async throws {
    try await withServer { server in
      let session = makeSession()
      do {
        let (bytes, _) = try await session.bytes(for: URLRequest(url: server.url("/slow/100000/5")))
        var iterator = bytes.lines.makeAsyncIterator()
        #expect(try await iterator.next() == "chunk 0")
      }
      #expect(await server.wait(until: { $0.openConnectionCount == 0 }))
      await invalidate(session)
    }
  }
}
