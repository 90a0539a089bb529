#if canImport(Darwin)
  import ClosureKit
  import Foundation

  /// The Apple-platform backend of ``ClosureXMLParser``: Foundation's `XMLParser` with
  /// ``XMLParserAdapter`` as its delegate. (Linux uses ``SAXSession`` over libxml2 instead.)
  enum FoundationXMLBackend {
    static func parse(
      _ data: Data, processingNamespaces: Bool, handlers: XMLParserHandlers
    ) throws -> XMLParserHandlers.Outcome {
      if let (line, column) = XMLDeclarationCheck.encodingContradictingBOM(
        in: Array(data.prefix(XMLDeclarationCheck.headLength)))
      {
        throw XMLParsingError(code: .encodingMismatch, line: line, column: column)
      }
      return try parse(XMLParser(data: data), processingNamespaces: processingNamespaces, handlers: handlers)
    }

    static func parse(
      contentsOf url: URL, processingNamespaces: Bool, handlers: XMLParserHandlers
    ) throws -> XMLParserHandlers.Outcome {
      let handle = try FileHandle(forReadingFrom: url)  // the file's own error, before parsing
      let head = try handle.read(upToCount: XMLDeclarationCheck.headLength) ?? Data()
      try? handle.close()
      if let (line, column) = XMLDeclarationCheck.encodingContradictingBOM(in: Array(head)) {
        throw XMLParsingError(code: .encodingMismatch, line: line, column: column)
      }
      guard let stream = InputStream(url: url) else {
        throw CocoaError(.fileReadUnknown, userInfo: [NSURLErrorKey: url])
      }
      return try parse(XMLParser(stream: stream), processingNamespaces: processingNamespaces, handlers: handlers)
    }

    private static func parse(
      _ parser: XMLParser, processingNamespaces: Bool, handlers: XMLParserHandlers
    ) throws -> XMLParserHandlers.Outcome {
      parser.shouldProcessNamespaces = processingNamespaces
      parser.shouldResolveExternalEntities = false
      let adapter = XMLParserAdapter(handlers)
      adapter.keepAlive.retain(adapter)
      parser.delegate = adapter
      let succeeded = parser.parse()
      parser.delegate = nil
      let failure = adapter.failure
      let didStart = adapter.didStart
      let line = parser.lineNumber
      let column = parser.columnNumber
      adapter.keepAlive.release()  // the parse is over: only this frame still holds the adapter

      if let failure {
        if failure is XMLParserHandlers.Stop { return .stopped }
        throw failure
      }
      guard didStart else { throw XMLParsingError(code: .emptyDocument, line: 1, column: 1) }
      guard succeeded else {
        let code = (parser.parserError as NSError?).map { XMLParsingError.Code(rawValue: $0.code) } ?? .unknown
        throw XMLParsingError(code: code, line: line, column: column)
      }
      return .finished
    }
  }

  /// The `XMLParserDelegate` behind ``XMLParserHandlers`` on Apple platforms: stored optional
  /// closures, one flag check per callback, no lock (a parse runs on one thread).
  final class XMLParserAdapter: NSObject, XMLParserDelegate {
    /// The closures: the one handler storage of both front ends (``SAXSession`` holds it too). A
    /// `let` struct, so each callback is one load and one call with no retain of the closure's
    /// context. Released with the adapter, when the parse call returns.
    private let handlers: XMLParserHandlers

    /// Set at the first error (the parser's or a handler's): no callback is delivered after it.
    private(set) var isFinished = false
    /// The first error: an ``XMLParsingError`` or the error a handler threw.
    private(set) var failure: (any Error)?
    /// Whether the parser called back at all (an empty document on Linux gets no callback).
    private(set) var didStart = false
    /// Keeps the adapter alive while `XMLParser` holds it weakly, until the parse has returned.
    let keepAlive = KeepAlive()

    init(_ handlers: XMLParserHandlers) {
      self.handlers = handlers
    }

    /// Records the first failure and stops the parser.
    private func fail(_ error: any Error, _ parser: XMLParser) {
      guard !isFinished else { return }
      isFinished = true
      failure = error
      parser.abortParsing()
    }

    func parserDidStartDocument(_ parser: XMLParser) {
      didStart = true
      guard !isFinished else { return }
      do { try handlers.didStartDocument?() } catch { fail(error, parser) }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
      guard !isFinished else { return }
      isFinished = true
      do { try handlers.didEndDocument?() } catch { failure = error }
    }

    func parser(
      _ parser: XMLParser,
      didStartElement elementName: String,
      namespaceURI: String?,
      qualifiedName qName: String?,
      attributes attributeDict: [String: String] = [:]
    ) {
      guard !isFinished else { return }
      do {
        try handlers.didStartElement?(elementName, namespaceURI, qName, attributeDict)
      } catch {
        fail(error, parser)
      }
    }

    func parser(
      _ parser: XMLParser,
      didEndElement elementName: String,
      namespaceURI: String?,
      qualifiedName qName: String?
    ) {
      guard !isFinished else { return }
      do { try handlers.didEndElement?(elementName, namespaceURI, qName) } catch { fail(error, parser) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      guard !isFinished else { return }
      do { try handlers.foundCharacters?(string) } catch { fail(error, parser) }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
      guard !isFinished else { return }
      do { try handlers.foundCDATA?(CDATABlock) } catch { fail(error, parser) }
    }

    func parser(_ parser: XMLParser, foundComment comment: String) {
      guard !isFinished else { return }
      do { try handlers.foundComment?(comment) } catch { fail(error, parser) }
    }

    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
      guard !isFinished else { return }
      do { try handlers.foundProcessingInstruction?(target, data) } catch { fail(error, parser) }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
      let code = XMLParsingError.Code(rawValue: (parseError as NSError).code)
      fail(XMLParsingError(code: code, line: parser.lineNumber, column: parser.columnNumber), parser)
    }
  }
#endif
