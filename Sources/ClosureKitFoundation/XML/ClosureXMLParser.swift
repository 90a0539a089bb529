public import Foundation

/// SAX parsing with closures: the events of an XML document, from `Data`, a file or a byte
/// sequence, delivered to the closures of an ``XMLParserHandlers``.
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
/// try ClosureXMLParser.parse(Data("<book><title>Dune</title></book>".utf8), handlers: handlers)
/// ```
///
/// On Linux the parse runs on ClosureKit's own driver of libxml2's SAX2 push parser (no
/// `FoundationXML` needed); on Apple platforms it runs on Foundation's `XMLParser`. Both deliver
/// the same events and the same ``XMLParsingError`` codes. External entities, external DTDs and
/// the network are never loaded; internal entities are expanded within a budget.
///
/// > Important: Synchronous forms run the closures on the calling thread, in document order, and
/// > release them before they return; the byte-sequence form runs them in the calling task.
public enum ClosureXMLParser {
  /// Parses `data`, calling the closures of `handlers` for each event, and throws the first error.
  ///
  /// ```swift
  /// let outcome = try ClosureXMLParser.parse(data, processingNamespaces: true, handlers: handlers)
  /// ```
  ///
  /// - Parameters:
  ///   - data: The document, of any size (it is fed to the parser in 64 KB chunks).
  ///   - processingNamespaces: Whether element names are split into local name, namespace URI
  ///     and qualified name, and namespace errors fail the parse. Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: ``XMLParserHandlers/Outcome/finished``, or ``XMLParserHandlers/Outcome/stopped``
  ///   when a handler threw ``XMLParserHandlers/Stop``.
  /// - Throws: ``XMLParsingError`` with the line and column of the first problem (also for an
  ///   empty document), or the error a handler threw. No closure runs after the first error.
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
    #if canImport(Darwin)
      return try FoundationXMLBackend.parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
    #else
      let session = SAXSession(handlers, processingNamespaces: processingNamespaces)
      data.withUnsafeBytes { _ = session.feed($0) }
      return try session.finish()
    #endif
  }

  /// Parses the file at `url` as it reads it, in 64 KB chunks: memory does not grow with the file.
  ///
  /// ```swift
  /// try ClosureXMLParser.parse(contentsOf: feedURL, handlers: XMLParserHandlers(foundComment: { print($0) }))
  /// ```
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: Whether the document was parsed whole or stopped by a handler.
  /// - Throws: The error opening or reading the file, an ``XMLParsingError``, or a handler's error.
  ///
  /// > Important: Synchronous, on the calling thread, as `parse(_:processingNamespaces:handlers:)`.
  @discardableResult
  public static func parse(
    contentsOf url: URL,
    processingNamespaces: Bool = false,
    handlers: XMLParserHandlers
  ) throws -> XMLParserHandlers.Outcome {
    #if canImport(Darwin)
      return try FoundationXMLBackend.parse(
        contentsOf: url, processingNamespaces: processingNamespaces, handlers: handlers)
    #else
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      let session = SAXSession(handlers, processingNamespaces: processingNamespaces)
      while let chunk = try handle.read(upToCount: SAXSession.chunkSize), !chunk.isEmpty {
        guard chunk.withUnsafeBytes({ session.feed($0) }) else { break }
      }
      return try session.finish()
    #endif
  }

  /// Parses a document as its bytes arrive, for example a download's ``ClosureURLSession/AsyncBytes``.
  ///
  /// ```swift
  /// let (bytes, _) = try await ClosureURLSession().bytes(for: URLRequest(url: feedURL))
  /// try await ClosureXMLParser.parse(bytes, handlers: handlers)
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The document's bytes, in order.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  ///   - handlers: The closures; each unset one is skipped.
  /// - Returns: Whether the document was parsed whole or stopped by a handler.
  /// - Throws: The sequence's error, an ``XMLParsingError``, or a handler's error.
  ///
  /// > Important: The closures run in the calling task, on the caller's actor if it has one
  /// > (`nonisolated(nonsending)`), between the awaits for the next bytes. On Linux the bytes are
  /// > parsed as each 64 KB arrives and iteration stops at the first error; on Apple platforms
  /// > they are collected first and then parsed by `XMLParser`.
  @discardableResult
  nonisolated(nonsending) public static func parse<Bytes: AsyncSequence>(
    _ bytes: Bytes,
    processingNamespaces: Bool = false,
    handlers: XMLParserHandlers
  ) async throws -> XMLParserHandlers.Outcome where Bytes.Element == UInt8 {
    #if canImport(Darwin)
      var data = Data()
      for try await byte in bytes { data.append(byte) }
      return try parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
    #else
      let session = SAXSession(handlers, processingNamespaces: processingNamespaces)
      var buffer: [UInt8] = []
      buffer.reserveCapacity(SAXSession.chunkSize)
      for try await byte in bytes {
        buffer.append(byte)
        if buffer.count == SAXSession.chunkSize {
          guard buffer.withUnsafeBytes({ session.feed($0) }) else { break }
          buffer.removeAll(keepingCapacity: true)
        }
      }
      buffer.withUnsafeBytes { _ = session.feed($0) }
      return try session.finish()
    #endif
  }
}
