import ClosureKitFoundation
import ClosureKitTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Every document of issue 15 that crashed the process through `XMLParser.parse(_:handlers:)` or
/// `XMLParser.events(in:)`, each parsed in a child process so that a crash fails the test (the
/// process exits with a signal instead of success). Each child parses the document through every
/// entry point, with every closure set, with namespaces off and on.
@Suite struct XMLCrashRegressionTests {
  /// The documents, as bytes (one of them is not valid UTF-8).
  static let documents: [[UInt8]] = [
    // A processing instruction without data: Foundation read libxml2's NULL data.
    Array("<r><?pi?></r>".utf8),
    // `<!DOCTYPE` inside a comment and inside a processing instruction fooled the byte pre-scan.
    Array("<!-- <!DOCTYPE x [<!ATTLIST a x CDATA #IMPLIED>]> --><r/>".utf8),
    Array("<?p <!DOCTYPE x [<!ATTLIST a x CDATA #IMPLIED>]> ?><r/>".utf8),
    Array("<!DOCTYPE x [<!-- > --><!ATTLIST x a CDATA #IMPLIED>]><x/>".utf8),
    // `>` inside a quoted literal of the DOCTYPE.
    Array("<!DOCTYPE doc SYSTEM \"a>b\" [<!ATTLIST doc x CDATA #IMPLIED y CDATA #REQUIRED>]><doc y='1'/>".utf8),
    // An unparsed entity and its notation.
    Array("<!DOCTYPE r [<!NOTATION gif SYSTEM \"g\"><!ENTITY e SYSTEM \"x\" NDATA gif>]><r/>".utf8),
    Array("<!DOCTYPE r [<!NOTATION gif PUBLIC \"-//g\"><!ENTITY e PUBLIC \"p\" \"x\" NDATA gif>]><r/>".utf8),
    // An encoding switch followed by a stray byte (abortParsing() in the error callback crashed).
    Array("<?xml version=\"1.0\" encoding=\"ISO88593\"".utf8) + [0xFF],
    Array("<?xml version=\"1.0\" encoding=\"ISO88593\"?><r>".utf8) + [0x80, 0xFF] + Array("</r>".utf8),
    Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>".utf8) + [0xFF],
    // A UTF-8 BOM with a declaration of ISO-8859-1.
    [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>é</r>".utf8),
    // Warnings that used to be thrown, `#IMPLIED` in a comment.
    Array("<?xml version=\"1.5\"?><r xml:space=\"bogus\" xmlns=\"a b\"/>".utf8),
    Array("<!-- #IMPLIED --><r/>".utf8),
    // Found by the fuzzer: a token repeated in an attribute's enumeration or notation list.
    // libxml2 reports these DTD validity errors with its parser context where the session's
    // pointer goes, and ClosureKit's error callback read the context as its session.
    Array("<!DOCTYPE a [<!ATTLIST a z (q|q) \"q\">]><a/>".utf8),
    Array("<!DOCTYPE a [<!NOTATION n SYSTEM \"n\"><!ATTLIST a z NOTATION (n|n) #IMPLIED>]><a/>".utf8),
  ]

  @Test(.heavyExitTest, arguments: documents)
  func issueDocumentDoesNotCrashTheProcess(document: [UInt8]) async {
    await #expect(processExitsWith: .success) { [document] in
      let data = Data(document)
      for processingNamespaces in [false, true] {
        let handlers = XMLParserHandlers(
          didStartDocument: {}, didEndDocument: {}, didStartElement: { _, _, _, _ in }, didEndElement: { _, _, _ in },
          foundCharacters: { _ in }, foundCDATA: { _ in }, foundComment: { _ in },
          foundProcessingInstruction: { _, _ in }, foundWarning: { _ in })
        _ = try? XMLParser.parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
        _ = try? ClosureXMLParser.parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
        _ = try? await XMLParser.events(in: data, processingNamespaces: processingNamespaces).reduce(0) { n, _ in n + 1
        }
        _ = try? await ClosureXMLParser.parse(
          AsyncStream { continuation in
            for byte in document { continuation.yield(byte) }
            continuation.finish()
          }, processingNamespaces: processingNamespaces, handlers: handlers)
      }
    }
  }

  /// A repeated enumeration or notation token is a validity error, not a well-formedness one:
  /// libxml2 reports it and calls the document well-formed, so it is a warning and the parse
  /// finishes. (Linux only: Apple's `XMLParser` reports no warnings.)
  #if !canImport(Darwin)
    @Test func aRepeatedEnumerationTokenIsAWarning() throws {
      for xml in [
        "<!DOCTYPE a [<!ATTLIST a z (q|q) \"q\">]><a/>",
        "<!DOCTYPE a [<!NOTATION n SYSTEM \"n\"><!ATTLIST a z NOTATION (n|n) #IMPLIED>]><a/>",
      ] {
        let warnings = Recorder<XMLParsingError>()
        let elements = Recorder<String>()
        let outcome = try ClosureXMLParser.parse(
          Data(xml.utf8),
          handlers: XMLParserHandlers(
            didStartElement: { name, _, _, _ in elements.append(name) },
            foundWarning: { warnings.append($0) }))
        #expect(outcome == .finished)
        #expect(elements.values == ["a"])
        #expect(warnings.values.map(\.code.domain) == [.dtd])
      }
    }
  #endif

  @Test func processingInstructionWithoutDataIsDeliveredWithNilData() throws {
    let log = Recorder<String>()
    let handlers = XMLParserHandlers(foundProcessingInstruction: { target, data in
      log.append("\(target) \(data ?? "nil")")
    })
    #expect(try ClosureXMLParser.parse(Data("<r><?pi?><?a b?></r>".utf8), handlers: handlers) == .finished)
    #if canImport(Darwin)
      #expect(log.values.count == 2)
    #else
      #expect(log.values == ["pi nil", "a b"])
    #endif
  }

  @Test func doctypeInsideACommentOrProcessingInstructionIsNotADoctype() throws {
    for xml in [
      "<!-- <!DOCTYPE x [<!ATTLIST a x CDATA #IMPLIED>]> --><r/>",
      "<?p <!DOCTYPE x [<!ATTLIST a x CDATA #IMPLIED>]> ?><r/>",
    ] {
      let names = Recorder<String>()
      let outcome = try ClosureXMLParser.parse(
        Data(xml.utf8), handlers: XMLParserHandlers(didStartElement: { name, _, _, _ in names.append(name) }))
      #expect(outcome == .finished)
      #expect(names.values == ["r"])
    }
  }

  @Test func encodingSwitchFollowedByAStrayByteIsATypedError() {
    let data = Data("<?xml version=\"1.0\" encoding=\"ISO88593\"".utf8) + Data([0xFF])
    #expect(throws: XMLParsingError.self) {
      try ClosureXMLParser.parse(data, handlers: XMLParserHandlers(didStartDocument: {}))
    }
  }

  @Test func byteOrderMarkContradictedByTheDeclarationIsAnError() {
    let data = Data([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>é</r>".utf8))
    let text = Recorder<String>()
    #expect(throws: XMLParsingError(code: .encodingMismatch, line: 1, column: 31)) {
      try ClosureXMLParser.parse(data, handlers: XMLParserHandlers(foundCharacters: { text.append($0) }))
    }
    #expect(text.values.isEmpty)
  }

  @Test func byteOrderMarkWithAUTF8DeclarationParses() throws {
    let data = Data([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><r>é</r>".utf8))
    let text = Recorder<String>()
    try ClosureXMLParser.parse(data, handlers: XMLParserHandlers(foundCharacters: { text.append($0) }))
    #expect(text.values.joined() == "é")
  }

  @Test func impliedInACommentIsNotRefused() throws {
    #expect(try ClosureXMLParser.parse(Data("<!-- #IMPLIED --><r/>".utf8), handlers: XMLParserHandlers()) == .finished)
  }
}
