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
  /// A document of `items` elements, each with its index as text.
  func document(items: Int) -> Data {
    var xml = "<items>"
    for index in 0..<items { xml += "<item>\(index)</item>" }
    xml += "</items>"
    return Data(xml.utf8)
  }

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
    // Large enough for several chunks of bytes and several batches of events.
    let data = document(items: 40_000)
    var fromData: [XMLEvent] = []
    for try await event in ClosureXMLParser.events(in: data) { fromData.append(event) }
    var fromBytes: [XMLEvent] = []
    for try await event in ClosureXMLParser.events(in: byteStream(data)) { fromBytes.append(event) }
    #expect(fromBytes.count == 3 * 40_000 + 4)
    #expect(fromBytes == fromData)
  }

  struct ReadFailed: Error {}

  @Test func theByteSequencesErrorComesAfterTheEventsBeforeIt() async {
    var xml = Data("<items>".utf8)
    for index in 0..<20_000 { xml.append(contentsOf: "<item>\(index)</item>".utf8) }
    var texts = 0
    await #expect(throws: ReadFailed.self) {
      for try await event in ClosureXMLParser.events(in: byteStream(xml, failure: ReadFailed())) {
        if case .characters = event { texts += 1 }
      }
    }
    // Every complete element before the failure was delivered (on Apple platforms, which collect
    // the bytes first, none is).
    #if !canImport(Darwin)
      #expect(texts > 19_000)
    #endif
  }

  @Test func aMalformedDocumentThrowsItsParsingError() async {
    await #expect(throws: XMLParsingError.self) {
      for try await _ in ClosureXMLParser.events(in: byteStream(Data("<a><b></a>".utf8))) {}
    }
  }

  @Test func breakingOutOfTheLoopStopsReadingTheBytes() async throws {
    // An endless document: the reader never reaches its end, so only the consumer stopping ends it.
    let ended = Expectation()
    let bytes = AsyncStream<UInt8> { continuation in
      continuation.onTermination = { _ in ended.fulfill() }
      let open = Array("<items>".utf8)
      let item = Array("<item>x</item>".utf8)
      for byte in open { continuation.yield(byte) }
      // Far more than the hand-over holds; the rest is produced on demand below.
      for _ in 0..<30_000 { for byte in item { continuation.yield(byte) } }
    }
    var seen = 0
    for try await event in ClosureXMLParser.events(in: bytes) {
      if case .characters = event { seen += 1 }
      if seen == 10 { break }
    }
    #expect(seen == 10)
    // The reading task was cancelled, which terminates the stream it iterates.
    #expect(await ended.wait(timeout: .seconds(30)))
  }
}
