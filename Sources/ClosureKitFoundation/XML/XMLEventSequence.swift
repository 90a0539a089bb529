/// The SAX events of one document, from `XMLParser.events(in:processingNamespaces:)`.
///
/// ```swift
/// for try await event in XMLParser.events(in: data) {
///   if case .characters(let text) = event { print(text) }
/// }
/// ```
///
/// The parse runs on a thread of its own and hands its events over in batches: the iterator
/// returns them one by one from a buffer of its own, with no lock and no suspension, and goes back
/// to the parse only when that buffer is empty, taking the whole next batch in one lock round. A
/// batch holds at most 4,096 events and about 1 MB of text, and the parse stays at most
/// ``bufferLimit`` events ahead of the consumer: it waits while a batch is waiting, so a large
/// document does not pile up in memory.
///
/// > Important: One iteration per sequence. Ending the iteration (`break`, an error thrown by the
/// > loop body, or cancelling its task), or dropping a sequence never iterated, stops the parse at
/// > its next event; the parse's thread ends.
/// > A cancelled iteration still returns the events already in the iterator's buffer, then `nil`.
public struct XMLEventSequence: AsyncSequence, Sendable {
  /// Each element is one SAX event.
  public typealias Element = XMLEvent

  /// How many events the parse may run ahead of the consumer: three batches (the iterator's, one
  /// waiting, and the one the parse is filling).
  ///
  /// ```swift
  /// print(XMLEventSequence.bufferLimit)   // 12288
  /// ```
  public static let bufferLimit = 3 * XMLEventChannel.batchEvents

  /// Ends the parse when the sequence and its iterator are gone.
  let lifetime: XMLEventConsumerLifetime

  /// Creates the iterator.
  ///
  /// ```swift
  /// var iterator = XMLParser.events(in: data).makeAsyncIterator()
  /// let first = try await iterator.next()   // .startDocument
  /// ```
  ///
  /// - Returns: The iterator; use one per sequence.
  public func makeAsyncIterator() -> Iterator {
    Iterator(iteration: XMLEventIteration(lifetime))
  }

  /// Iterates the events.
  ///
  /// ```swift
  /// var iterator = events.makeAsyncIterator()
  /// while let event = try await iterator.next() { print(event) }
  /// ```
  public struct Iterator: AsyncIteratorProtocol {
    /// The shared state; its end stops the parse.
    @usableFromInline let iteration: XMLEventIteration
    /// The rest of the batch being returned, in reverse order: the next event is the last, so
    /// that it is moved out, not copied.
    @usableFromInline var buffer: [XMLEvent] = []

    init(iteration: XMLEventIteration) {
      self.iteration = iteration
    }

    /// The next event: from the iterator's buffer, or from the next batch of the parse, waiting
    /// for it; runs on the caller's actor.
    ///
    /// ```swift
    /// let event = try await iterator.next(isolation: #isolation)
    /// ```
    ///
    /// - Parameter actor: The caller's actor; it does not leave it.
    /// - Returns: The next event, or `nil` after ``XMLEvent/endDocument`` (or when the iteration
    ///   was cancelled).
    /// - Throws: The first `XMLParsingError`, after every event before it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> XMLEvent? {
      // The fast path, inlined into the consumer: an event of a batch taken in one lock round.
      if let event = buffer.popLast() { return event }
      return try await iteration.next(refilling: &buffer, isolation: actor)
    }

    /// The next event, waiting for the parse to produce it.
    ///
    /// ```swift
    /// let event = try await iterator.next()
    /// ```
    ///
    /// - Returns: The next event, or `nil` after ``XMLEvent/endDocument`` (or when the iteration
    ///   was cancelled).
    /// - Throws: The first `XMLParsingError`, after every event before it.
    @inlinable
    public mutating func next() async throws -> XMLEvent? {
      try await next(isolation: nil)
    }
  }
}
