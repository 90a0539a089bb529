public import Foundation

#if canImport(FoundationXML)
  public import FoundationXML
#endif

extension XMLParser {
  /// Parses `data` with closures: the Foundation spelling of
  /// `ClosureXMLParser.parse(_:processingNamespaces:handlers:)`, which it calls (on Linux it
  /// needs `import FoundationXML`; the parse itself does not go through Foundation there).
  ///
  /// ```swift
  /// var handlers = XMLParserHandlers()
  /// handlers.didStartElement = { name, _, _, _ in print("<\(name)>") }
  /// try XMLParser.parse(Data("<book><title>Dune</title></book>".utf8), handlers: handlers)
  /// ```
  ///
  /// - Parameters:
  ///   - data: The document.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: Whether the document was parsed whole or stopped by a handler.
  /// - Throws: ``XMLParsingError`` for the first problem, or the error a handler threw.
  ///
  /// > Important: Synchronous: the closures run on the calling thread, in document order, and
  /// > are released before this returns.
  ///
  /// - Complexity: O(n) in the size of the document.
  @discardableResult
  public static func parse(
    _ data: Data,
    processingNamespaces: Bool = false,
    handlers: XMLParserHandlers
  ) throws -> XMLParserHandlers.Outcome {
    try ClosureXMLParser.parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
  }

  /// Parses the file at `url` as it reads it: the Foundation spelling of
  /// ``ClosureXMLParser/parse(contentsOf:processingNamespaces:handlers:)``.
  ///
  /// ```swift
  /// try XMLParser.parse(contentsOf: feedURL, handlers: XMLParserHandlers(foundComment: { print($0) }))
  /// ```
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: Whether the document was parsed whole or stopped by a handler.
  /// - Throws: The error reading the file, an ``XMLParsingError``, or a handler's error.
  ///
  /// > Important: Synchronous, on the calling thread.
  @discardableResult
  public static func parse(
    contentsOf url: URL,
    processingNamespaces: Bool = false,
    handlers: XMLParserHandlers
  ) throws -> XMLParserHandlers.Outcome {
    try ClosureXMLParser.parse(contentsOf: url, processingNamespaces: processingNamespaces, handlers: handlers)
  }

  /// The SAX events of `data` as an asynchronous sequence: the Foundation spelling of
  /// ``ClosureXMLParser/events(in:processingNamespaces:)``.
  ///
  /// ```swift
  /// for try await event in XMLParser.events(in: data) { print(event) }
  /// ```
  ///
  /// - Parameters:
  ///   - data: The document.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  /// - Returns: A sequence that yields each event, then ends, or throws the first error.
  ///
  /// > Important: The parse runs on a thread of its own, at most
  /// > ``XMLEventSequence/bufferLimit`` events ahead of the consumer.
  public static func events(in data: Data, processingNamespaces: Bool = false) -> XMLEventSequence {
    ClosureXMLParser.events(in: data, processingNamespaces: processingNamespaces)
  }
}
