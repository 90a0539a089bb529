import ClosureKit
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The buffer between a data task (the producer, on the session's delegate queue) and the one
/// consumer of ``ClosureURLSession/AsyncBytes``: a queue of chunks, no copy beyond `Data` to
/// `[UInt8]`, one waiting consumer at most.
@usableFromInline
final class ByteStream: Sendable {
  /// What ends the stream.
  enum End {
    /// The body arrived in full.
    case finished
    /// The task failed; thrown once, then the stream is finished.
    case failed(any Error)
  }

  struct State {
    /// Chunks not consumed yet, from `head` on.
    var chunks: [[UInt8]] = []
    /// Index of the first unconsumed chunk in `chunks`.
    var head = 0
    /// Bytes in the unconsumed chunks.
    var buffered = 0
    /// The largest `buffered` seen, for the benchmarks.
    var peakBuffered = 0
    /// Set when the producer is done or the consumer cancelled.
    var end: End?
    /// The consumer waiting for a chunk.
    var waiter: CheckedContinuation<[UInt8]?, any Error>?
    /// Cancels the network task (on the session's delegate queue); called when the consumer goes
    /// away or is cancelled, `nil` once the task has completed.
    var cancelTask: (@Sendable () -> Void)?
  }

  let state = Locked(State())

  init() {}

  func attach(cancellation: @escaping @Sendable () -> Void) {
    state.withLock { $0.cancelTask = cancellation }
  }

  /// The largest number of bytes buffered at once.
  var peakBufferedBytes: Int { state.withLock { $0.peakBuffered } }

  // MARK: Producer

  func append(_ data: Data) {
    guard !data.isEmpty else { return }
    let chunk = [UInt8](data)
    let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
      guard state.end == nil else { return nil }
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.chunks.append(chunk)
      state.buffered += chunk.count
      state.peakBuffered = max(state.peakBuffered, state.buffered)
      return nil
    }
    waiter?.resume(returning: chunk)
  }

  func finish(_ error: (any Error)?) {
    let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
      state.cancelTask = nil
      guard state.end == nil else { return nil }
      state.end = error.map { .failed($0) } ?? .finished
      defer { state.waiter = nil }
      return state.waiter
    }
    guard let waiter else { return }
    if let error {
      state.withLock { $0.end = .finished }
      waiter.resume(throwing: error)
    } else {
      waiter.resume(returning: nil)
    }
  }

  // MARK: Consumer

  /// The next chunk, never empty; `nil` at the end of the body.
  @usableFromInline
  func next() async throws -> [UInt8]? {
    if Task.isCancelled {
      cancelByConsumer()
      throw CancellationError()
    }
    switch try state.withLock({ try Self.take(&$0) }) {
    case .chunk(let chunk): return chunk
    case .end: return nil
    case .wait: break
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
        let ready = state.withLock { state -> Result<[UInt8]?, any Error>? in
          do {
            switch try Self.take(&state) {
            case .chunk(let chunk): return .success(chunk)
            case .end: return .success(nil)
            case .wait:
              state.waiter = continuation
              return nil
            }
          } catch {
            return .failure(error)
          }
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      cancelByConsumer()
    }
  }

  /// What the consumer gets without waiting.
  private enum Taken {
    /// The next chunk.
    case chunk([UInt8])
    /// The body ended.
    case end
    /// Nothing yet.
    case wait
  }

  /// Takes the next chunk, or reports the end (throwing a failure once).
  private static func take(_ state: inout State) throws -> Taken {
    if state.head < state.chunks.count {
      let chunk = state.chunks[state.head]
      state.chunks[state.head] = []
      state.head += 1
      state.buffered -= chunk.count
      if state.head == state.chunks.count {
        state.chunks.removeAll(keepingCapacity: true)
        state.head = 0
      } else if state.head >= 1024 {
        state.chunks.removeFirst(state.head)
        state.head = 0
      }
      return .chunk(chunk)
    }
    switch state.end {
    case nil: return .wait
    case .finished: return .end
    case .failed(let error):
      state.end = .finished
      throw error
    }
  }

  /// The consuming task was cancelled: cancel the network task, throw `CancellationError` to a
  /// waiting consumer, drop the buffer.
  func cancelByConsumer() {
    let (waiter, cancelTask) = state.withLock {
      state -> (CheckedContinuation<[UInt8]?, any Error>?, (@Sendable () -> Void)?) in
      let waiter = state.waiter
      let cancelTask = state.cancelTask
      state.waiter = nil
      state.cancelTask = nil
      state.chunks = []
      state.head = 0
      state.buffered = 0
      if state.end == nil || waiter != nil { state.end = .failed(CancellationError()) }
      return (waiter, cancelTask)
    }
    cancelTask?()
    if let waiter {
      state.withLock { $0.end = .finished }
      waiter.resume(throwing: CancellationError())
    }
  }

  /// Every consumer handle is gone: cancel the network task if it is still running.
  func abandon() {
    let cancelTask = state.withLock { state -> (@Sendable () -> Void)? in
      defer {
        state.cancelTask = nil
        state.chunks = []
        state.head = 0
        state.buffered = 0
        if state.end == nil { state.end = .finished }
      }
      return state.cancelTask
    }
    cancelTask?()
  }
}

/// Shared by every copy of an ``ClosureURLSession/AsyncBytes`` and its iterators: when the last one
/// goes away, the stream is abandoned and its task cancelled.
@usableFromInline
final class ByteStreamConsumer: Sendable {
  @usableFromInline let stream: ByteStream

  init(_ stream: ByteStream) { self.stream = stream }

  deinit { stream.abandon() }
}
