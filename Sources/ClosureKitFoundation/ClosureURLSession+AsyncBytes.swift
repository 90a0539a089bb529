extension ClosureURLSession {
  /// The body of a response as an asynchronous sequence of bytes, read as it arrives.
  ///
  /// ```swift
  /// let (bytes, _) = try await session.bytes(for: request)
  /// var count = 0
  /// for try await _ in bytes { count += 1 }
  /// ```
  ///
  /// Iterating byte by byte costs an index check per byte; ``chunks`` hands over whole chunks as
  /// they arrived from the network, and ``lines`` decodes UTF-8 lines.
  ///
  /// > Important: Single-pass: one iterator at a time reads the body; a second iterator continues
  /// > where the first stopped. Cancelling the iterating task cancels the request and the iteration
  /// > throws `CancellationError`. When the sequence and all its iterators are gone, the request is
  /// > cancelled.
  public struct AsyncBytes: AsyncSequence, Sendable {
    /// A byte of the body.
    public typealias Element = UInt8

    @usableFromInline let consumer: ByteStreamConsumer

    init(consumer: ByteStreamConsumer) {
      self.consumer = consumer
    }

    /// Creates the iterator.
    ///
    /// ```swift
    /// var iterator = bytes.makeAsyncIterator()
    /// let first = try await iterator.next()
    /// ```
    ///
    /// - Returns: An iterator that reads the body from where it was left.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(consumer: consumer)
    }

    /// The body's chunks, as the network delivered them.
    ///
    /// ```swift
    /// for try await chunk in bytes.chunks { hasher.update(chunk) }
    /// ```
    public var chunks: Chunks { Chunks(consumer: consumer) }

    /// Reads bytes one at a time from buffered chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
      @usableFromInline let consumer: ByteStreamConsumer
      @usableFromInline var chunk: [UInt8] = []
      @usableFromInline var index = 0

      init(consumer: ByteStreamConsumer) {
        self.consumer = consumer
      }

      /// The next byte, or `nil` at the end of the body.
      ///
      /// ```swift
      /// while let byte = try await iterator.next() { print(byte) }
      /// ```
      ///
      /// - Returns: The next byte or `nil`.
      /// - Throws: `URLError` if the transfer failed, `CancellationError` if the task was cancelled.
      // @inlinable: the fast path must inline into the caller's loop. Measured by `Benchmarks/`
      // (suite `network`): 305 MB/s with it, 15 MB/s without (an async call per byte).
      @inlinable
      public mutating func next() async throws -> UInt8? {
        if index < chunk.count {
          defer { index &+= 1 }
          return chunk[index]
        }
        return try await nextChunk()
      }

      @usableFromInline
      mutating func nextChunk() async throws -> UInt8? {
        guard let next = try await consumer.stream.next() else {
          chunk = []
          index = 0
          return nil
        }
        chunk = next
        index = 1
        return next[0]
      }
    }

    /// The body's chunks, each a non-empty `[UInt8]`, in order.
    public struct Chunks: AsyncSequence, Sendable {
      /// One chunk.
      public typealias Element = [UInt8]

      let consumer: ByteStreamConsumer

      /// Creates the iterator.
      ///
      /// ```swift
      /// var iterator = bytes.chunks.makeAsyncIterator()
      /// ```
      ///
      /// - Returns: An iterator over the remaining chunks.
      public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(consumer: consumer) }

      /// Reads one chunk at a time.
      public struct AsyncIterator: AsyncIteratorProtocol {
        let consumer: ByteStreamConsumer

        /// The next chunk, or `nil` at the end of the body.
        ///
        /// ```swift
        /// while let chunk = try await iterator.next() { print(chunk.count) }
        /// ```
        ///
        /// - Returns: The next chunk or `nil`.
        /// - Throws: `URLError` if the transfer failed, `CancellationError` if the task was cancelled.
        public mutating func next() async throws -> [UInt8]? {
          try await consumer.stream.next()
        }
      }
    }
  }
}

/// An iterator belongs to the task that iterates; share the sequence instead.
@available(*, unavailable)
extension ClosureURLSession.AsyncBytes.AsyncIterator: Sendable {}

/// An iterator belongs to the task that iterates; share the sequence instead.
@available(*, unavailable)
extension ClosureURLSession.AsyncBytes.Chunks.AsyncIterator: Sendable {}
