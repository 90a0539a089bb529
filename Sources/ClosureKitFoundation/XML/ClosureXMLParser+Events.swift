public import Foundation

extension ClosureXMLParser {
  /// The SAX events of `data`, as an asynchronous sequence; the parse runs on a thread of its own.
  ///
  /// ```swift
  /// for try await event in ClosureXMLParser.events(in: data, processingNamespaces: true) {
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
    startEventParse { handlers in
      try parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
    }
  }

  /// The SAX events of a document read from a byte sequence (a download's
  /// ``ClosureURLSession/AsyncBytes``, a file's bytes), as an asynchronous sequence: the bytes are
  /// read by a task of their own and parsed, as they arrive, on a thread of its own.
  ///
  /// ```swift
  /// let (bytes, _) = try await ClosureURLSession().bytes(for: URLRequest(url: feedURL))
  /// for try await event in ClosureXMLParser.events(in: bytes) {
  ///   if case .startElement(let name, _, _, _) = event { print(name) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The document's bytes, in order.
  ///   - processingNamespaces: Whether namespaces are processed. Defaults to `false`.
  /// - Returns: A sequence that yields each event, then ends, or throws the first error (the byte
  ///   sequence's or an ``XMLParsingError``) after the events that came before it.
  ///
  /// > Important: Reading starts at once. At most ``XMLEventSequence/bufferLimit`` events and
  /// > four 64 KB chunks of bytes wait for the consumer, so memory stays bounded whatever the
  /// > document's size. Ending the iteration (`break`, or cancelling its task) or dropping the
  /// > sequence stops the parse at its next event and cancels the reading task. On Linux the
  /// > bytes are parsed as each 64 KB arrives; on Apple platforms (`XMLParser`) they are
  /// > collected first, as ``parse(_:processingNamespaces:handlers:)-(Bytes,_,_)`` does.
  public static func events<Bytes: AsyncSequence & Sendable>(
    in bytes: Bytes,
    processingNamespaces: Bool = false
  ) -> XMLEventSequence where Bytes.Element == UInt8 {
    let handOver = XMLByteHandOver()
    let reader = Task {
      var chunk: [UInt8] = []
      chunk.reserveCapacity(XMLByteHandOver.chunkSize)
      var end: Result<Void, any Error> = .success(())
      do {
        for try await byte in bytes {
          chunk.append(byte)
          if chunk.count == XMLByteHandOver.chunkSize {
            guard await handOver.put(chunk) else { return }
            chunk.removeAll(keepingCapacity: true)
          }
        }
      } catch {
        end = .failure(error)
      }
      // The bytes read before an error are parsed too: their events come before the error.
      if !chunk.isEmpty {
        guard await handOver.put(chunk) else { return }
      }
      handOver.finish(end)
    }
    return startEventParse(
      whenCancelled: {
        handOver.close()
        reader.cancel()
      },
      parse: { handlers in
        // A parse that ends early (an error in the document) frees a reader waiting for room.
        defer {
          handOver.close()
          reader.cancel()
        }
        try parse(chunksFrom: handOver, processingNamespaces: processingNamespaces, handlers: handlers)
      })
  }

  /// Parses the chunks `handOver` gives until it ends.
  @discardableResult
  static func parse(
    chunksFrom handOver: XMLByteHandOver,
    processingNamespaces: Bool,
    handlers: XMLParserHandlers
  ) throws -> XMLParserHandlers.Outcome {
    #if canImport(Darwin)
      var data = Data()
      while let chunk = try handOver.next() { data.append(contentsOf: chunk) }
      return try parse(data, processingNamespaces: processingNamespaces, handlers: handlers)
    #else
      let session = SAXSession(handlers, processingNamespaces: processingNamespaces)
      while let chunk = try handOver.next() {
        guard chunk.withUnsafeBytes({ session.feed($0) }) else { break }
      }
      return try session.finish()
    #endif
  }

  /// Starts a parse on a thread of its own whose events go to the returned sequence in batches;
  /// `parse` runs the document through the handlers it is given. `whenCancelled` runs once if the
  /// consumer stops first.
  static func startEventParse(
    whenCancelled: (@Sendable () -> Void)? = nil,
    parse: @escaping @Sendable (XMLParserHandlers) throws -> Void
  ) -> XMLEventSequence {
    let channel = XMLEventChannel()
    if let whenCancelled { channel.whenCancelled(whenCancelled) }
    let thread = Thread {
      defer { channel.parseDidEnd() }
      let batcher = XMLEventBatcher(channel)
      let handlers = XMLParserHandlers(
        didStartDocument: { try batcher.add(.startDocument) },
        didEndDocument: { try batcher.add(.endDocument) },
        didStartElement: { name, namespaceURI, qualifiedName, attributes in
          var size = name.utf8.count
          for (key, value) in attributes { size &+= key.utf8.count &+ value.utf8.count }
          try batcher.add(
            .startElement(name: name, namespaceURI: namespaceURI, qualifiedName: qualifiedName, attributes: attributes),
            size: size)
        },
        didEndElement: { name, namespaceURI, qualifiedName in
          try batcher.add(
            .endElement(name: name, namespaceURI: namespaceURI, qualifiedName: qualifiedName), size: name.utf8.count)
        },
        foundCharacters: { try batcher.add(.characters($0), size: $0.utf8.count) },
        foundCDATA: { try batcher.add(.cdata($0), size: $0.count) },
        foundComment: { try batcher.add(.comment($0), size: $0.utf8.count) },
        foundProcessingInstruction: { try batcher.add(.processingInstruction(target: $0, data: $1)) }
      )
      let result: Result<Void, any Error>
      do {
        try parse(handlers)
        result = .success(())
      } catch {
        result = .failure(error)
      }
      // The events before the end or the error; a consumer that is gone is told nothing more.
      guard (try? batcher.flush()) != nil else { return }
      channel.finish(result)
    }
    thread.name = "ClosureKit.XMLParser.events"
    thread.start()
    return XMLEventSequence(lifetime: XMLEventConsumerLifetime(channel))
  }
}
