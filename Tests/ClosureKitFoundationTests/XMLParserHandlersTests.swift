import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Records every event of a parse as text, through the closures of `XMLParserHandlers`.
private func recordingHandlers(into log: Recorder<String>) -> XMLParserHandlers {
  XMLParserHandlers(
    didStartDocument: { log.append("startDocument") },
    didEndDocument: { log.append("endDocument") },
    didStartElement: { name, namespaceURI, qualifiedName, attributes in
      let attributes = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
      log.append("start \(name) \(namespaceURI ?? "-") \(qualifiedName ?? "-") [\(attributes)]")
    },
    didEndElement: { name, namespaceURI, _ in log.append("end \(name) \(namespaceURI ?? "-")") },
    foundCharacters: { log.append("text \($0)") },
    foundCDATA: { log.append("cdata \(String(decoding: $0, as: UTF8.self))") },
    foundComment: { log.append("comment \($0)") },
    foundProcessingInstruction: { log.append("pi \($0) \($1 ?? "-")") }
  )
}

@Suite struct XMLParserHandlersTests {
  @Test func wellFormedDocumentDeliversEveryKindOfEventInOrder() throws {
    let xml = "<?xml version=\"1.0\"?><?style sheet?><r><!--note--><a x=\"1\">hi</a><![CDATA[<raw>]]></r>"
    let log = Recorder<String>()
    let outcome = try XMLParser.parse(Data(xml.utf8), handlers: recordingHandlers(into: log))
    #expect(outcome == .finished)
    #expect(
      log.values == [
        "startDocument", "pi style sheet", "start r - - []", "comment note", "start a - - [x=1]", "text hi", "end a -",
        "cdata <raw>", "end r -", "endDocument",
      ])
  }

  @Test func namespacedDocumentReportsNamespaceURIAndQualifiedName() throws {
    let xml = "<r xmlns=\"urn:d\" xmlns:p=\"urn:p\"><p:a p:x=\"1\"/><b/></r>"
    let log = Recorder<String>()
    try XMLParser.parse(Data(xml.utf8), processingNamespaces: true, handlers: recordingHandlers(into: log))
    #expect(
      log.values == [
        "startDocument", "start r urn:d r []", "start a urn:p p:a [p:x=1]", "end a urn:p", "start b urn:d b []",
        "end b urn:d", "end r urn:d", "endDocument",
      ])
  }

  @Test func unsetClosuresAreSkipped() throws {
    let names = Recorder<String>()
    let handlers = XMLParserHandlers(didEndElement: { name, _, _ in names.append(name) })
    try XMLParser.parse(Data("<r><a>text</a><!--c--><b/></r>".utf8), handlers: handlers)
    #expect(names.values == ["a", "b", "r"])
  }

  @Test func malformedDocumentThrowsTheFirstErrorWithLineAndColumn() {
    // On Linux, Foundation's parse() returns true for this document and reports two errors.
    let log = Recorder<String>()
    #expect(throws: XMLParsingError(code: .tagNameMismatch, line: 1, column: 11)) {
      try XMLParser.parse(Data("<r><a></r>".utf8), handlers: recordingHandlers(into: log))
    }
    #expect(log.values == ["startDocument", "start r - - []", "start a - - []"])
  }

  @Test func noEventIsDeliveredAfterTheFirstError() {
    // On Linux, Foundation goes on calling the delegate after the error at line 3 (`</c>`).
    let xml = "<r>\n<a>1</a>\n<b>2</c>\n<d>3</d></r>"
    let log = Recorder<String>()
    #expect(throws: XMLParsingError(code: .tagNameMismatch, line: 3, column: 9)) {
      try XMLParser.parse(Data(xml.utf8), handlers: recordingHandlers(into: log))
    }
    #expect(log.values.last == "text 2")
    #expect(!log.values.contains("start d - - []"))
    #expect(!log.values.contains("endDocument"))
  }

  @Test(arguments: [
    ("<r a=1/>", XMLParsingError.Code.attributeNotStarted),
    ("<r></r><x>", .prematureDocumentEnd),
    ("<r>&foo;</r>", .undeclaredEntity),
    ("hello", .emptyDocument),
    ("<r><a>text", .prematureDocumentEnd),
  ])
  func malformedDocumentsMapToLibxml2Codes(xml: String, code: XMLParsingError.Code) {
    #expect {
      try XMLParser.parse(Data(xml.utf8), handlers: XMLParserHandlers())
    } throws: { error in
      (error as? XMLParsingError)?.code == code
    }
  }

  @Test func emptyDocumentThrowsInsteadOfSucceeding() {
    // On Linux, Foundation's parse() returns true for empty data and calls nothing.
    #expect(throws: XMLParsingError(code: .emptyDocument, line: 1, column: 1)) {
      try XMLParser.parse(Data(), handlers: XMLParserHandlers())
    }
  }

  @Test func handlerThrowingStopEndsTheParseWithoutError() throws {
    let names = Recorder<String>()
    let handlers = XMLParserHandlers(didStartElement: { name, _, _, _ in
      names.append(name)
      if name == "b" { throw XMLParserHandlers.Stop() }
    })
    let outcome = try XMLParser.parse(Data("<r><a/><b/><c/></r>".utf8), handlers: handlers)
    #expect(outcome == .stopped)
    #expect(names.values == ["r", "a", "b"])
  }

  @Test func handlerErrorIsRethrownAndNothingRunsAfterIt() {
    struct Refused: Error, Equatable {}
    let names = Recorder<String>()
    let handlers = XMLParserHandlers(
      didEndDocument: { names.append("endDocument") },
      didStartElement: { name, _, _, _ in
        names.append(name)
        if name == "a" { throw Refused() }
      })
    #expect(throws: Refused()) {
      try XMLParser.parse(Data("<r><a/><b/></r>".utf8), handlers: handlers)
    }
    #expect(names.values == ["r", "a"])
  }

  @Test func largeDocumentParsesEveryElement() throws {
    var xml = "<items>"
    for index in 0..<50_000 { xml += "<item id=\"\(index)\">value \(index)</item>" }
    xml += "</items>"
    var count = 0
    var lastID = ""
    let handlers = XMLParserHandlers(didStartElement: { name, _, _, attributes in
      if name == "item" {
        count += 1
        lastID = attributes["id"] ?? ""
      }
    })
    try XMLParser.parse(Data(xml.utf8), handlers: handlers)
    #expect(count == 50_000)
    #expect(lastID == "49999")
  }

  @Test func parseFromFileURL() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("closurekit-\(UUID().uuidString).xml")
    try Data("<r><a/></r>".utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let names = Recorder<String>()
    try XMLParser.parse(
      contentsOf: url, handlers: XMLParserHandlers(didStartElement: { n, _, _, _ in names.append(n) }))
    #expect(names.values == ["r", "a"])
  }

  @Test func closuresAreReleasedWhenTheParseReturns() throws {
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    var handlers = XMLParserHandlers()
    handlers.didStartElement = { [captured] _, _, _, _ in _ = captured }
    captured = nil
    try XMLParser.parse(Data("<r/>".utf8), handlers: handlers)
    handlers = XMLParserHandlers()
    #expect(weakCaptured == nil)
  }

  @Test func closuresAreReleasedAfterAFailedParse() {
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    do {
      let handlers = XMLParserHandlers(foundCharacters: { [captured] _ in _ = captured })
      captured = nil
      _ = try? XMLParser.parse(Data("<r>x</s>".utf8), handlers: handlers)
    }
    #expect(weakCaptured == nil)
  }

  @Test(.exitTest) func adapterKeepAliveIsReleasedAfterEveryParse() async {
    await #expect(processExitsWith: .success) {
      _ = try? XMLParser.parse(Data("<r/>".utf8), handlers: XMLParserHandlers())
      _ = try? XMLParser.parse(Data("<r></s>".utf8), handlers: XMLParserHandlers())
      _ = try? XMLParser.parse(
        Data("<r><a/></r>".utf8),
        handlers: XMLParserHandlers(didStartElement: { _, _, _, _ in throw XMLParserHandlers.Stop() }))
      precondition(KeepAlive.liveCount == 0, "an XML adapter was never released")
    }
  }

  @Test(arguments: [
    "<?xml version=\"1.0\"?><!DOCTYPE a [<!ATTLIST a x CDATA #IMPLIED>]><a/>",
    "<?xml version=\"1.0\"?><!DOCTYPE a [<!ATTLIST a x CDATA #REQUIRED>]><a x='1'/>",
    "<?xml version=\"1.0\"?><!DOCTYPE a [<!NOTATION gif SYSTEM \"image/gif\">]><a/>",
    "<?xml version=\"1.0\"?>\n<!DOCTYPE a [\n<!ATTLIST a x (p|q) #IMPLIED>]><a/>",
    "<!DOCTYPE a [<!NOTATION gif SYSTEM \"g\"><!ENTITY e SYSTEM \"x\" NDATA gif><!ATTLIST a i ENTITY #IMPLIED>]><a i='e'/>",
    "<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ENTITY % p \"<!ATTLIST a x CDATA #IMPLIED>\"> %p;]><a/>",
  ])
  func dtdDeclarationsAreIgnoredAndTheDocumentParses(xml: String) throws {
    // Foundation on Linux crashed on each of these (SIGSEGV), so ClosureKit used to refuse them.
    let names = Recorder<String>()
    let outcome = try XMLParser.parse(
      Data(xml.utf8), handlers: XMLParserHandlers(didStartElement: { name, _, _, _ in names.append(name) }))
    #expect(outcome == .finished)
    #expect(names.values == ["a"])
  }

  @Test func utf16DocumentWithDTDParses() throws {
    let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE a [<!ATTLIST a x CDATA #IMPLIED>]><a>é</a>"
    let text = Recorder<String>()
    try XMLParser.parse(xml.data(using: .utf16)!, handlers: XMLParserHandlers(foundCharacters: { text.append($0) }))
    #expect(text.values.joined() == "é")
  }

  @Test func utf16DocumentWithoutDTDParses() throws {
    let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><r><a>é</a></r>"
    let text = Recorder<String>()
    try XMLParser.parse(xml.data(using: .utf16)!, handlers: XMLParserHandlers(foundCharacters: { text.append($0) }))
    #expect(text.values.joined() == "é")
  }

  @Test(.exitTest) func dtdWithImpliedAttributeDoesNotCrashTheProcess() async {
    await #expect(processExitsWith: .success) {
      let xml = "<?xml version=\"1.0\"?><!DOCTYPE a [<!ATTLIST a x CDATA #IMPLIED><!NOTATION g SYSTEM \"g\">]><a/>"
      do {
        try XMLParser.parse(Data(xml.utf8), handlers: XMLParserHandlers(didStartElement: { _, _, _, _ in }))
      } catch {}
    }
  }

  #if os(Linux)
    /// The Foundation bug that ClosureKit's own libxml2 driver avoids on Linux: if this starts
    /// failing, Foundation was fixed.
    /// (SIGSEGV; under ThreadSanitizer the sanitizer catches the signal and exits with 66.)
    @Test(.exitTest) func foundationItselfCrashesOnImpliedAttributeWithADelegate() async {
      await #expect(processExitsWith: .failure) {
        final class Empty: NSObject, XMLParserDelegate {}
        let parser = XMLParser(
          data: Data("<?xml version=\"1.0\"?><!DOCTYPE a [<!ATTLIST a x CDATA #IMPLIED>]><a/>".utf8))
        let delegate = Empty()
        parser.delegate = delegate
        _ = parser.parse()
      }
    }
  #endif

  @Test func safeDTDsStillParse() throws {
    let xml = """
      <?xml version="1.0"?>
      <!-- a comment with #IMPLIED in it -->
      <!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ATTLIST a x CDATA "v"><!ENTITY e "hi">]>
      <a note="#IMPLIED NOTATION">text</a>
      """
    let text = Recorder<String>()
    let outcome = try XMLParser.parse(Data(xml.utf8), handlers: XMLParserHandlers(foundCharacters: { text.append($0) }))
    #expect(outcome == .finished)
    #expect(text.values.joined() == "text")
  }

  @Test func eventsSequenceYieldsEveryEventThenFinishes() async throws {
    var events: [XMLEvent] = []
    for try await event in XMLParser.events(in: Data("<r><a>hi</a><!--c--></r>".utf8)) { events.append(event) }
    #expect(
      events == [
        .startDocument, .startElement(name: "r", namespaceURI: nil, qualifiedName: nil, attributes: [:]),
        .startElement(name: "a", namespaceURI: nil, qualifiedName: nil, attributes: [:]), .characters("hi"),
        .endElement(name: "a", namespaceURI: nil, qualifiedName: nil), .comment("c"),
        .endElement(name: "r", namespaceURI: nil, qualifiedName: nil), .endDocument,
      ])
  }

  @Test func eventsSequenceThrowsTheFirstErrorAfterTheEventsBeforeIt() async {
    var names: [String] = []
    await #expect(throws: XMLParsingError(code: .tagNameMismatch, line: 1, column: 11)) {
      for try await event in XMLParser.events(in: Data("<r><a></r>".utf8)) {
        if case .startElement(let name, _, _, _) = event { names.append(name) }
      }
    }
    #expect(names == ["r", "a"])
  }

  @Test(.exitTest) func eventsSequenceReleasesItsAdapterBeforeItFinishes() async {
    await #expect(processExitsWith: .success) {
      for try await _ in XMLParser.events(in: Data("<r><a/></r>".utf8)) {}
      _ = try? await XMLParser.events(in: Data("<r></s>".utf8)).reduce(0) { count, _ in count + 1 }
      precondition(KeepAlive.liveCount == 0, "the events sequence's adapter was never released")
    }
  }

  @Test func eventsSequenceDeliversALargeDocumentCompletelyAndInOrder() async throws {
    var xml = "<items>"
    for index in 0..<5_000 { xml += "<item>\(index)</item>" }
    xml += "</items>"
    var texts: [String] = []
    var last: XMLEvent?
    for try await event in XMLParser.events(in: Data(xml.utf8)) {
      if case .characters(let text) = event { texts.append(text) }
      last = event
    }
    #expect(texts == (0..<5_000).map(String.init))
    #expect(last == .endDocument)
  }

  @Test func breakingOutOfTheEventsSequenceStopsTheParse() async throws {
    var xml = "<items>"
    for index in 0..<20_000 { xml += "<item>\(index)</item>" }
    xml += "</items>"
    var seen = 0
    for try await event in XMLParser.events(in: Data(xml.utf8)) {
      if case .startElement = event { seen += 1 }
      if seen == 3 { break }
    }
    #expect(seen == 3)
  }
}
