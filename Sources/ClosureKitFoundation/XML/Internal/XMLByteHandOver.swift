import ClosureKit
import Dispatch

/// Chunks of a document's bytes, handed from the task that reads them to the parse's thread, for
/// ``ClosureXMLParser/events(in:processingNamespaces:)-(Bytes,_)``: at most ``limit`` chunks wait;
/// the reader suspends while the hand-over is full, the parse's thread blocks while it is empty.
/// A pure state machine under the lock returns what to do; resuming the reader and waking the
/// parse happen after the lock is released.
final class XMLByteHandOver: Sendable {
  /// Chunks that may wait, at most (each ``chunkSize`` bytes).
  static let limit = 4
  /// Bytes in one chunk.
  static let chunkSize = 65_536

  private struct State {
    var chunks: [[UInt8]] = []
    /// The reader's end: its sequence ended (`success`) or threw.
    var end: Result<Void, any Error>?
    /// Set when the consumer of the events is gone: the reader stops, the parse sees the end.
    var isClosed = false
    /// The reader, suspended until there is room (or the hand-over closes).
    var reader: UnsafeContinuation<Void, Never>?
    /// Whether the parse's thread waits (or is about to) on the semaphore.
    var parseWaits = false

    enum PutAction {
      case added(wakeParse: Bool)
      case closed
      case full
    }

    mutating func put(_ chunk: inout [UInt8]) -> PutAction {
      if isClosed { return .closed }
      guard chunks.count < XMLByteHandOver.limit else { return .full }
      chunks.append(chunk)
      chunk = []
      defer { parseWaits = false }
      return .added(wakeParse: parseWaits)
    }

    enum TakeAction {
      case chunk([UInt8], resumeReader: UnsafeContinuation<Void, Never>?)
      case end(Result<Void, any Error>)
      case closed
      case wait
    }

    mutating func take() -> TakeAction {
      if isClosed { return .closed }
      if !chunks.isEmpty {
        defer { reader = nil }
        return .chunk(chunks.removeFirst(), resumeReader: reader)
      }
      if let end { return .end(end) }
      parseWaits = true
      return .wait
    }

    /// Whether the wake-up of the parse is owed (it waits), clearing the debt.
    mutating func takeParseWakeUp() -> Bool {
      defer { parseWaits = false }
      return parseWaits
    }

    func invariantsHold() -> Bool {
      chunks.count <= XMLByteHandOver.limit && (reader == nil || chunks.count == XMLByteHandOver.limit || isClosed)
    }
  }

  private let state = Locked(State())
  /// Signalled once for each time the parse was told to wait. Created at 0: libdispatch traps when
  /// a semaphore is deallocated below its initial value.
  private let parseWakeUp = DispatchSemaphore(value: 0)

  /// Hands `chunk` to the parse, suspending while the hand-over is full; `false` once it is closed
  /// (the reader should stop).
  func put(_ chunk: [UInt8]) async -> Bool {
    var chunk = chunk
    while true {
      switch state.withLock({ $0.put(&chunk) }) {
      case .added(let wakeParse):
        if wakeParse { parseWakeUp.signal() }
        return true
      case .closed:
        return false
      case .full:
        // Resumed by the parse taking a chunk, or by `close()`; then tried again.
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
          let resumeNow = state.withLock { state -> Bool in
            assert(state.reader == nil, "two readers on one hand-over")
            if state.isClosed || state.chunks.count < XMLByteHandOver.limit { return true }
            state.reader = continuation
            return false
          }
          if resumeNow { continuation.resume() }
        }
      }
    }
  }

  /// Records the reader's end (after its last chunk).
  func finish(_ result: Result<Void, any Error>) {
    let wakeParse = state.withLock { state -> Bool in
      state.end = result
      return state.takeParseWakeUp()
    }
    if wakeParse { parseWakeUp.signal() }
  }

  /// The parse's side: the next chunk, blocking while none waits; `nil` at the end of the bytes or
  /// once closed; throws the byte sequence's error.
  func next() throws -> [UInt8]? {
    while true {
      let action = state.withLock { state -> State.TakeAction in
        defer { assert(state.invariantsHold()) }
        return state.take()
      }
      switch action {
      case .chunk(let chunk, let reader):
        reader?.resume()
        return chunk
      case .end(let result):
        try result.get()
        return nil
      case .closed:
        return nil
      case .wait:
        parseWakeUp.wait()
      }
    }
  }

  /// Ends the hand-over for both sides: the reader's `put` returns `false`, the parse's `next`
  /// returns `nil`.
  func close() {
    let (reader, wakeParse) = state.withLock { state in
      state.isClosed = true
      defer { state.reader = nil }
      return (state.reader, state.takeParseWakeUp())
    }
    reader?.resume()
    if wakeParse { parseWakeUp.signal() }
  }
}
