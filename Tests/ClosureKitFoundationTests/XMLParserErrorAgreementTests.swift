import ClosureKitFoundation
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Records the events of Foundation's `XMLParser`, rendered as ``XMLParserErrorAgreementTests``
/// renders ClosureKit's, up to its first error (it goes on after one; ClosureKit stops).
private final class FirstErrorRecorder: NSObject, XMLParserDelegate {
  var log = RenderedEvents()

  func parserDidStartDocument(_ parser: XMLParser) { log.add("start") }
  func parserDidEndDocument(_ parser: XMLParser) { log.add("end") }
  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    log.add(RenderedEvents.start(name, attributes))
  }
  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    log.add("</\(name)>")
  }
  func parser(_ parser: XMLParser, foundCharacters string: String) { log.add("t " + string) }
  func parser(_ parser: XMLParser, foundCDATA data: Data) { log.add("c " + String(decoding: data, as: UTF8.self)) }
  func parser(_ parser: XMLParser, foundComment comment: String) { log.add("!" + comment) }
  func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
    log.add("error \((error as NSError).code)")
  }
}

/// Events rendered as lines, adjacent text joined (either parser may split text), nothing after
/// the first error.
struct RenderedEvents {
  private(set) var lines: [String] = []

  static func start(_ name: String, _ attributes: [String: String]) -> String {
    "<\(name) [" + attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "]>"
  }

  mutating func add(_ line: String) {
    guard !(lines.last?.hasPrefix("error ") ?? false) else { return }
    if line.hasPrefix("t "), let last = lines.last, last.hasPrefix("t ") {
      lines[lines.count - 1] = last + line.dropFirst(2)
    } else {
      lines.append(line)
    }
  }
}

/// Broken documents give the events Foundation's `XMLParser` gives before their error, and the
/// same error: compared event for event with the real `XMLParser` of the platform (on Linux
/// FoundationXML's, libxml2-based as ClosureKit's driver is; on Apple platforms it is the backend).
@Suite struct XMLParserErrorAgreementTests {
  /// Entities that expand ten to the power nine times ("billion laughs"): libxml2 reports an
  /// entity loop (89) while the first reference expands.
  static let laughs: String = {
    var entities = "<!ENTITY l0 \"lol\">"
    for level in 1...9 {
      entities += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
    }
    return "<!DOCTYPE r [\(entities)]>"
  }()

  static let documents: [String] = [
    laughs + "<r>&l9;</r>",
    laughs + "<r>before &l9; after</r>",
    laughs + "<r><a>x</a>before<b>&l9;</b></r>",
    "<!DOCTYPE r [<!ENTITY e \"<a>\">]><r>x&e;<after/></r>",
    "<r>text<a>more</r>",
    "<r>text &amp; more<a x=\"1\">in</a>tail &foo; x</r>",
    "<r>abc<",
    "<r>abc</r>junk",
    "<r>ab\u{1}cd</r>",
    "<r>abc &#0; def</r>",
    "<r>text<!-- c -->more<x/>a]]>b</r>",
  ]

  static func closureKitEvents(_ document: String) -> [String] {
    var log = RenderedEvents()
    let handlers = XMLParserHandlers(
      didStartDocument: { log.add("start") },
      didEndDocument: { log.add("end") },
      didStartElement: { name, _, _, attributes in log.add(RenderedEvents.start(name, attributes)) },
      didEndElement: { name, _, _ in log.add("</\(name)>") },
      foundCharacters: { log.add("t " + $0) },
      foundCDATA: { log.add("c " + String(decoding: $0, as: UTF8.self)) },
      foundComment: { log.add("!" + $0) }
    )
    do {
      try ClosureXMLParser.parse(Data(document.utf8), handlers: handlers)
    } catch let error as XMLParsingError {
      log.add("error \(error.code.rawValue)")
    } catch {
      log.add("unexpected \(error)")
    }
    return log.lines
  }

  static func foundationEvents(_ document: String) -> [String] {
    let parser = XMLParser(data: Data(document.utf8))
    let recorder = FirstErrorRecorder()
    parser.delegate = recorder
    _ = parser.parse()
    return recorder.log.lines
  }

  @Test(arguments: documents)
  func aBrokenDocumentGivesXMLParsersEventsBeforeItsError(_ document: String) {
    let expected = Self.foundationEvents(document)
    #expect(expected.last?.hasPrefix("error ") == true)
    #expect(Self.closureKitEvents(document) == expected)
  }
}
