import ClosureKit
public import Foundation

#if canImport(FoundationXML)
  public import FoundationXML
#endif

extension XMLParser {
  /// Parses `data`, calling the closures of `handlers` for each event, and throws the first error.
  ///
  /// ```swift
  /// var titles: [String] = []
  /// var text = ""
  /// var handlers = XMLParserHandlers()
  /// handlers.foundCharacters = { text += $0 }
  /// handlers.didEndElement = { name, _, _ in
  ///   if name == "title" { titles.append(text) }
  ///   text = ""
  /// }
  /// try XMLParser.parse(Data("<book><title>Dune</title></book>".utf8), handlers: handlers)
  /// ```
  ///
  /// - Parameters:
  ///   - data: The document.
  ///   - processingNamespaces: Whether element names are split into local name, namespace URI
  ///     and qualified name (`XMLParser.shouldProcessNamespaces`). Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: ``XMLParserHandlers/Outcome/finished``, or ``XMLParserHandlers/Outcome/stopped``
  ///   when a handler threw ``XMLParserHandlers/Stop``.
  /// - Throws: ``XMLParsingError`` with the line and column of the first problem (also for an
  ///   empty document, and ``XMLParsingError/Code/unsupportedDocument`` for a DTD that would crash
  ///   Foundation on Linux), or the error a handler threw. No closure runs after the first error.
  ///
  /// > Important: Synchronous: the closures run on the calling thread, in document order, and are
  /// > released before this returns. `XMLParser` holds its delegate weakly; this call keeps the
  /// > adapter alive until the parse has returned.
  ///
  /// - Complexity: O(n) in the size of the document.
  @discardableResult
  public static func parse(
    _ data: Data,
    processingNamespaces: Bool = false,
    handlers: XMLParserHandlers
  ) throws -> XMLParserHandlers.Outcome {
    #if !canImport(Darwin)
      if let (line, column) = XMLDocumentCheck.firstUnsupportedConstruct(in: data) {
        throw XMLParsingError(code: .unsupportedDocument, line: line, column: column)
      }
    #endif
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = processingNamespaces
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

  /// Parses the document at `url` as ``parse(_:processingNamespaces:handlers:)`` does.
  ///
  /// ```swift
  /// try XMLParser.parse(contentsOf: feedURL, handlers: XMLParserHandlers(foundComment: { print($0) }))
  /// ```
  ///
  /// - Parameters:
  ///   - url: A file URL (read whole before parsing).
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: Whether the document was parsed whole or stopped by a handler.
  /// - Throws: The error reading the file, an ``XMLParsingError``, or a handler's error.
  ///
  /// > Important: Synchronous, on the calling thread, as ``parse(_:processingNamespaces:handlers:)``.
  @discardableResult
  public static func parse(
    contentsOf url: URL,
    processingNamespaces: Bool = false,
    handlers: XMLParserHandlers
  ) throws -> XMLParserHandlers.Outcome {
    try parse(Data(contentsOf: url), processingNamespaces: processingNamespaces, handlers: handlers)
  }

  /// The SAX events of `data`, as an asynchronous sequence; the parse runs on a thread of its own.
  ///
  /// ```swift
  /// for try await event in XMLParser.events(in: data, processingNamespaces: true) {
  ///   print(event)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - data: The document.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  /// - Returns: A sequence that yields each event, then ends, or throws the first
  ///   ``XMLParsingError`` after the events that came before it.
  ///
  /// > Important: The parse starts at once and runs at most ``XMLEventSequence/bufferLimit``
  /// > events ahead of the consumer. Ending the iteration (`break`, or cancelling its task) or
  /// > dropping the sequence stops the parse at its next event.
  public static func events(in data: Data, processingNamespaces: Bool = false) -> XMLEventSequence {
    let (stream, continuation) = AsyncThrowingStream<XMLEvent, any Error>.makeStream()
    // Created at 0 and then given its credits: libdispatch traps when a semaphore is deallocated
    // with a value below its initial one, which is how a parse that ran ahead leaves it.
    let credits = DispatchSemaphore(value: 0)
    for _ in 0..<XMLEventSequence.bufferLimit { credits.signal() }
    continuation.onTermination = { _ in credits.signal() }  // wakes a parse waiting for credit
    let thread = Thread {
      func yield(_ event: XMLEvent) throws {
        credits.wait()
        if case .terminated = continuation.yield(event) { throw XMLParserHandlers.Stop() }
      }
      let handlers = XMLParserHandlers(
        didStartDocument: { try yield(.startDocument) },
        didEndDocument: { try yield(.endDocument) },
        didStartElement: { name, namespaceURI, qualifiedName, attributes in
          try yield(
            .startElement(name: name, namespaceURI: namespaceURI, qualifiedName: qualifiedName, attributes: attributes))
        },
        didEndElement: { name, namespaceURI, qualifiedName in
          try yield(.endElement(name: name, namespaceURI: namespaceURI, qualifiedName: qualifiedName))
        },
        foundCharacters: { try yield(.characters($0)) },
        foundCDATA: { try yield(.cdata($0)) },
        foundComment: { try yield(.comment($0)) },
        foundProcessingInstruction: { try yield(.processingInstruction(target: $0, data: $1)) }
      )
      do {
        try parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    thread.name = "ClosureKit.XMLParser.events"
    thread.start()
    return XMLEventSequence(stream: stream, credits: credits)
  }
}
