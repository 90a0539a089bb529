import ClosureKitFoundation
import Foundation
import Testing

/// One row of the table both backends must agree on: a document and what parsing it gives.
struct XMLAgreementCase: Sendable, CustomTestStringConvertible {
  let name: String
  let document: [UInt8]
  let processingNamespaces: Bool
  /// The events, rendered by ``XMLBackendAgreementTests/render(_:processingNamespaces:)``,
  /// adjacent text joined; then `error <code>` or `end`.
  let expected: [String]

  init(_ name: String, _ xml: String, namespaces: Bool = false, _ expected: [String]) {
    self.init(name, Array(xml.utf8), namespaces: namespaces, expected)
  }

  init(_ name: String, _ document: [UInt8], namespaces: Bool = false, _ expected: [String]) {
    self.name = name
    self.document = document
    self.processingNamespaces = namespaces
    self.expected = expected
  }

  var testDescription: String { name }
}

/// The events and error kinds that ClosureKit's two backends, libxml2's SAX2 push parser driven by
/// ClosureKit on Linux and Foundation's `XMLParser` on Apple platforms, must agree on. The table
/// uses only the public API and no platform conditional, so it runs unchanged on macOS.
@Suite struct XMLBackendAgreementTests {
  static let cases: [XMLAgreementCase] = [
    XMLAgreementCase(
      "every kind of event",
      "<?xml version=\"1.0\"?><?style sheet?><r><!--note--><a x=\"1\" y='2'>hi &amp; bye</a><![CDATA[<raw>]]></r>",
      ["start", "pi style sheet", "<r []>", "!note", "<a [x=1,y=2]>", "t hi & bye", "</a>", "c <raw>", "</r>", "end"]),
    XMLAgreementCase(
      "namespaces processed", "<r xmlns=\"urn:d\" xmlns:p=\"urn:p\"><p:a p:x=\"1\"/><b/></r>", namespaces: true,
      [
        "start", "<r urn:d r []>", "<a urn:p p:a [p:x=1]>", "</a urn:p p:a>", "<b urn:d b []>", "</b urn:d b>",
        "</r urn:d r>", "end",
      ]),
    XMLAgreementCase(
      "predefined entities and character references", "<r a=\"x&amp;y&lt;&#65;\">&lt;&#x42;&gt;</r>",
      ["start", "<r [a=x&y<A]>", "t <B>", "</r>", "end"]),
    XMLAgreementCase(
      "attribute declarations without a default",
      "<!DOCTYPE r [<!ATTLIST r x CDATA #IMPLIED y CDATA #REQUIRED>]><r y='1'/>",
      ["start", "<r [y=1]>", "</r>", "end"]),
    XMLAgreementCase(
      "notation and unparsed entity",
      "<!DOCTYPE r [<!NOTATION gif SYSTEM \"g\"><!ENTITY e SYSTEM \"x\" NDATA gif>]><r/>",
      ["start", "<r []>", "</r>", "end"]),
    XMLAgreementCase(
      "processing instruction without data", "<r><?pi?></r>", ["start", "<r []>", "pi pi ", "</r>", "end"]),
    XMLAgreementCase(
      "UTF-16 with a byte order mark",
      [0xFF, 0xFE] + Array("<r>é</r>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
      ["start", "<r []>", "t é", "</r>", "end"]),
    XMLAgreementCase("tag name mismatch", "<r><a></r>", ["start", "<r []>", "<a []>", "error 76"]),
    XMLAgreementCase("unquoted attribute", "<r a=1/>", ["start", "error 39"]),
    XMLAgreementCase("content after the root", "<r></r><x>", ["start", "<r []>", "</r>", "error 5"]),
    XMLAgreementCase("undeclared entity", "<r>&foo;</r>", ["start", "<r []>", "error 26"]),
    XMLAgreementCase("not a document", "hello", ["start", "error 4"]),
    XMLAgreementCase("empty", "", ["error 4"]),
    XMLAgreementCase("truncated", "<r><a>text", ["start", "<r []>", "<a []>", "t text", "error 5"]),
    XMLAgreementCase(
      "BOM contradicted by the declaration",
      [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>".utf8), ["error 10004"]),
  ]

  /// Renders the events of a parse, joining adjacent text (either backend may split it).
  static func render(_ document: [UInt8], processingNamespaces: Bool) -> [String] {
    var log: [String] = []
    func add(_ line: String) {
      if line.hasPrefix("t "), let last = log.last, last.hasPrefix("t ") {
        log[log.count - 1] = last + line.dropFirst(2)
      } else {
        log.append(line)
      }
    }
    func names(_ name: String, _ namespaceURI: String?, _ qualifiedName: String?) -> String {
      processingNamespaces ? "\(name) \(namespaceURI ?? "-") \(qualifiedName ?? "-")" : name
    }
    let handlers = XMLParserHandlers(
      didStartDocument: { add("start") },
      didEndDocument: { add("end") },
      didStartElement: { name, namespaceURI, qualifiedName, attributes in
        let pairs = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        add("<\(names(name, namespaceURI, qualifiedName)) [\(pairs)]>")
      },
      didEndElement: { name, namespaceURI, qualifiedName in add("</\(names(name, namespaceURI, qualifiedName))>") },
      foundCharacters: { add("t " + $0) },
      foundCDATA: { add("c " + String(decoding: $0, as: UTF8.self)) },
      foundComment: { add("!" + $0) },
      foundProcessingInstruction: { add("pi \($0) \($1 ?? "")") }
    )
    do {
      try ClosureXMLParser.parse(Data(document), processingNamespaces: processingNamespaces, handlers: handlers)
    } catch let error as XMLParsingError {
      add("error \(error.code.rawValue)")
    } catch {
      add("unexpected \(error)")
    }
    return log
  }

  @Test(arguments: cases)
  func backendDeliversTheAgreedEventsAndErrorKind(_ row: XMLAgreementCase) {
    #expect(Self.render(row.document, processingNamespaces: row.processingNamespaces) == row.expected)
  }
}
