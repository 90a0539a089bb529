extension ClosureURLSession.AsyncBytes {
  /// The body decoded as UTF-8 and split into lines, without their terminators.
  ///
  /// ```swift
  /// for try await line in bytes.lines { print(line) }
  /// ```
  ///
  /// A line ends at `\n`, `\r\n` or `\r`; an empty line in the middle is kept, a final terminator
  /// does not add an empty line (as Foundation's `AsyncLineSequence`). Invalid UTF-8 is replaced
  /// with U+FFFD.
  public var lines: Lines { Lines(chunks: chunks) }

  /// The lines of a body; see ``ClosureURLSession/AsyncBytes/lines``.
  public struct Lines: AsyncSequence, Sendable {
    /// One line, without its terminator.
    public typealias Element = String

    let chunks: ClosureURLSession.AsyncBytes.Chunks

    /// Creates the iterator.
    ///
    /// ```swift
    /// var iterator = bytes.lines.makeAsyncIterator()
    /// ```
    ///
    /// - Returns: An iterator over the remaining lines.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks.makeAsyncIterator()) }

    /// Reads one line at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var chunks: ClosureURLSession.AsyncBytes.Chunks.AsyncIterator
      var pending: [UInt8] = []
      var chunk: [UInt8] = []
      var index = 0
      var skipLineFeed = false
      var isFinished = false

      init(chunks: ClosureURLSession.AsyncBytes.Chunks.AsyncIterator) {
        self.chunks = chunks
      }

      /// The next line, or `nil` at the end of the body.
      ///
      /// ```swift
      /// while let line = try await iterator.next() { print(line) }
      /// ```
      ///
      /// - Returns: The next line or `nil`.
      /// - Throws: `URLError` if the transfer failed, `CancellationError` if the task was cancelled.
      public mutating func next() async throws -> String? {
        while true {
          while index < chunk.count {
            let byte = chunk[index]
            if skipLineFeed {
              skipLineFeed = false
              if byte == 0x0A {
                index += 1
                continue
              }
            }
            if byte == 0x0A || byte == 0x0D {
              skipLineFeed = byte == 0x0D
              let line = String(decoding: pending, as: UTF8.self)
              pending.removeAll(keepingCapacity: true)
              index += 1
              return line
            }
            let start = index
            while index < chunk.count, chunk[index] != 0x0A, chunk[index] != 0x0D { index += 1 }
            pending.append(contentsOf: chunk[start..<index])
          }
          guard !isFinished, let next = try await chunks.next() else {
            isFinished = true
            guard !pending.isEmpty else { return nil }
            defer { pending = [] }
            return String(decoding: pending, as: UTF8.self)
          }
          chunk = next
          index = 0
        }
      }
    }
  }
}

/// An iterator belongs to the task that iterates; share the sequence instead.
@available(*, unavailable)
extension ClosureURLSession.AsyncBytes.Lines.AsyncIterator: Sendable {}
