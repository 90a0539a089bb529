import ClosureKitTestSupport
import Foundation
import Testing

@testable import ClosureKitFoundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A document of `items` elements, each with its index as text: three events per item (also for
/// `XMLEventsFromBytesTests`).
func document(items: Int) -> Data {
  var xml = "<items>"
  for index in 0..<items { xml += "<item>\(index)</item>" }
  xml += "</items>"
  return Data(xml.utf8)
}

/// `events(in:)`'s batch hand-over: order across batches, a parse that stops when its consumer
/// does, and a parse that stays a bounded number of events ahead.
@Suite struct XMLEventSequenceTests {
  @Test func eventsArriveInDocumentOrderAcrossManyBatches() async throws {
    let count = 3 * XMLEventSequence.bufferLimit
    var texts: [String] = []
    var events = 0
    for try await event in XMLParser.events(in: document(items: count)) {
      if case .characters(let text) = event { texts.append(text) }
      events += 1
    }
    #expect(texts == (0..<count).map(String.init))
    #expect(events == 3 * count + 4)
  }

  @Test func theErrorComesAfterEveryEventOfTheBatchesBeforeIt() async {
    var xml = "<items>"
    for index in 0..<10_000 { xml += "<item>\(index)</item>" }
    xml += "</wrong>"
    var texts = 0
    await #expect(throws: XMLParsingError.self) {
      for try await event in XMLParser.events(in: Data(xml.utf8)) {
        if case .characters = event { texts += 1 }
      }
    }
    #expect(texts == 10_000)
  }

  @Test func aCancelledConsumerStopsTheParseAndEndsAfterItsBuffer() async throws {
    let events = XMLParser.events(in: document(items: 200_000))
    let channel = events.lifetime.channel
    let consumer = Task {
      var seen = 0
      for try await _ in events {
        seen += 1
        if seen == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return seen
    }
    let seen = try await consumer.value
    #expect(seen >= 3 && seen <= XMLEventChannel.batchEvents)
    #expect(await eventually { channel.hasParseEnded })
  }

  @Test func breakingOutOfTheLoopStopsTheParse() async throws {
    func firstThree() async throws -> XMLEventChannel {
      let events = XMLParser.events(in: document(items: 200_000))
      var seen = 0
      for try await _ in events {
        seen += 1
        if seen == 3 { break }
      }
      return events.lifetime.channel
    }
    let channel = try await firstThree()
    #expect(await eventually { channel.hasParseEnded })
  }

  @Test func breakingOutOfTheLoopStopsTheParseWhileTheSequenceIsKept() async throws {
    let events = XMLParser.events(in: document(items: 200_000))
    var seen = 0
    for try await _ in events {
      seen += 1
      if seen == 3 { break }
    }
    #expect(await eventually { events.lifetime.channel.hasParseEnded })
  }

  @Test func droppingTheSequenceWhileItsIteratorRunsDoesNotStopTheParse() async throws {
    var events: XMLEventSequence? = XMLParser.events(in: document(items: 20_000))
    var iterator = events!.makeAsyncIterator()
    events = nil
    var count = 0
    while try await iterator.next() != nil { count += 1 }
    #expect(count == 3 * 20_000 + 4)
  }

  @Test func droppingAnUnreadSequenceStopsTheParse() async {
    var events: XMLEventSequence? = XMLParser.events(in: document(items: 200_000))
    let channel = events!.lifetime.channel
    events = nil
    #expect(await eventually { channel.hasParseEnded })
  }

  @Test func theParseWaitsForAConsumerThatDoesNotRead() async throws {
    let events = XMLParser.events(in: document(items: 200_000))
    var iterator = events.makeAsyncIterator()
    #expect(try await iterator.next() == .startDocument)
    // The iterator holds the first batch, a second waits, the parse fills a third and then
    // blocks until the consumer takes the second: far from the 600,004 events of the document.
    #expect(await eventually { events.lifetime.channel.isParseWaiting })
    #expect(!events.lifetime.channel.hasParseEnded)
    #expect(iterator.buffer.count < XMLEventChannel.batchEvents)
  }
}
