import Dispatch

/// The SAX events of one document, from `XMLParser.events(in:processingNamespaces:)`.
///
/// ```swift
/// for try await event in XMLParser.events(in: data) {
///   if case .characters(let text) = event { print(text) }
/// }
/// ```
///
/// The parse runs on a thread of its own and stays at most ``bufferLimit`` events ahead of the
/// consumer: it waits while that many are buffered, so a large document does not pile up in memory.
///
/// > Important: One iteration per sequence. Ending the iteration (`break`, an error thrown by the
/// > loop body, or cancelling its task) stops the parse at its next event; the parse's thread ends.
public struct XMLEventSequence: AsyncSequence, Sendable {
  /// Each element is one SAX event.
  public typealias Element = XMLEvent

  /// How many events the parse may run ahead of the consumer.
  ///
  /// ```swift
  /// print(XMLEventSequence.bufferLimit)   // 512
  /// ```
  public static let bufferLimit = 512

  /// The buffered events, then the end or the first error.
  let stream: AsyncThrowingStream<XMLEvent, any Error>
  /// One credit per event the parse may still buffer; the consumer gives one back per event taken.
  let credits: DispatchSemaphore

  /// Creates the iterator.
  ///
  /// ```swift
  /// var iterator = XMLParser.events(in: data).makeAsyncIterator()
  /// let first = try await iterator.next()   // .startDocument
  /// ```
  ///
  /// - Returns: The iterator; use one per sequence.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: stream.makeAsyncIterator(), credits: credits)
  }

  /// Iterates the events.
  ///
  /// ```swift
  /// var iterator = events.makeAsyncIterator()
  /// while let event = try await iterator.next() { print(event) }
  /// ```
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<XMLEvent, any Error>.Iterator
    let credits: DispatchSemaphore

    /// The next event, waiting for the parse to produce it.
    ///
    /// ```swift
    /// let event = try await iterator.next()
    /// ```
    ///
    /// - Returns: The next event, or `nil` after ``XMLEvent/endDocument`` (or when a handler of
    ///   the parse stopped it).
    /// - Throws: The first `XMLParsingError`, after every event before it.
    public mutating func next() async throws -> XMLEvent? {
      let event = try await base.next()
      if event != nil { credits.signal() }
      return event
    }
  }
}
