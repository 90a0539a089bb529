import ClosureKitTestSupport
import ClosureKitTesting
import Foundation
import Synchronization
import Testing

@testable import ClosureKitFoundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `ClosureXMLParser.events(in:)` over a byte sequence: the same events as from `Data`, the byte
/// sequence's error after the events before it, and a consumer that stops also stops the reading.
@Suite struct XMLEventsFromBytesTests {
  /// The bytes of `data` as an async sequence; throws `failure` after them if given.
  func byteStream(_ data: Data, failure: (any Error)? = nil) -> AsyncThrowingStream<
    UInt8, any Error
  > {
    AsyncThrowingStream { continuation in
      for byte in data { continuation.yield(byte) }
      continuation.finish(throwing: failure)
    }
  }

  @Test func aByteSequenceGivesTheSameEventsAsItsData() async throws {
    // Large enough for several chunks of bytes (64 KiB) and several batches of events (4,096), and
    // small enough not to hold a thread of the cooperative pool for long in a debug build.
    let data = document(items: 8_000)
    var fromData: [XMLEvent] = []
    for try await event in ClosureXMLParser.events(in: data) { fromData.append(event) }
    var fromBytes: [XMLEvent] = []
    for try await event in ClosureXMLParser.events(in: byteStream(data)) { fromBytes.append(event) }
    #expect(fromBytes.count == 3 * 8_000 + 4)
    #expect(fromBytes == fromData)
  }

  struct ReadFailed: Error {}

  @Test func theByteSequencesErrorComesAfterTheEventsBeforeIt() async {
    var xml = Data("<items>".utf8)
    for index in 0..<10_000 { xml.append(contentsOf: "<item>\(index)</item>".utf8) }
    var texts = 0
    await #expect(throws: ReadFailed.self) {
      for try await event in ClosureXMLParser.events(in: byteStream(xml, failure: ReadFailed())) {
        if case .characters = event { texts += 1 }
      }
    }
    // Every complete element before the failure was delivered (on Apple platforms, which collect
    // the bytes first, none is).
    #if !canImport(Darwin)
      #expect(texts > 9_000)
    #endif
  }

  @Test func aMalformedDocumentThrowsItsParsingError() async {
    await #expect(throws: XMLParsingError.self) {
      for try await _ in ClosureXMLParser.events(in: byteStream(Data("<a><b></a>".utf8))) {}
    }
  }

  /// An endless document: its iterator fulfills `ended` when it is destroyed, which happens only
  /// when the reading task stops iterating (cancelled, or told the consumer is gone).
  struct EndlessDocument: AsyncSequence, Sendable {
    let ended: ClosureKitTesting.Expectation

    final class Reading: Sendable {
      let ended: ClosureKitTesting.Expectation
      init(_ ended: ClosureKitTesting.Expectation) { self.ended = ended }
      deinit { ended.fulfill() }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
      let reading: Reading
      var index = 0
      let open = Array("<items>".utf8)
      let item = Array("<item>x</item>".utf8)

      mutating func next() async -> UInt8? {
        if Task.isCancelled { return nil }
        defer { index += 1 }
        return index < open.count ? open[index] : item[(index - open.count) % item.count]
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reading: Reading(ended)) }
  }

  @Test func breakingOutOfTheLoopStopsReadingTheBytes() async throws {
    let ended = ClosureKitTesting.Expectation()
    var seen = 0
    for try await event in ClosureXMLParser.events(in: EndlessDocument(ended: ended)) {
      if case .characters = event { seen += 1 }
      if seen == 10 { break }
    }
    #expect(seen == 10)
    // The reading task stopped iterating the endless document.
    #expect(await ended.wait(timeout: crossThreadDeadline))
  }
}
