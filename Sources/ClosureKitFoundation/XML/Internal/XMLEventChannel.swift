import ClosureKit
import Dispatch
import Foundation
import Synchronization

/// The hand-over between a parse, which runs on a thread of its own, and the one consumer of its
/// ``XMLEventSequence``: whole batches of events, one lock round per batch on each side.
///
/// The parse fills a batch of its own (``XMLEventBatcher``) and hands it over when it is full; the
/// consumer takes the batch that is ready, whole, and returns its events one by one from a local
/// buffer without locking or suspending. At most one batch waits between them: a parse with a full
/// batch and one still waiting blocks on ``parseWakeUp`` until the consumer takes it, so the events
/// in memory are at most three batches (the consumer's, the one waiting, the parse's own).
struct XMLEventHandOver {
  /// The batch handed over and not taken yet; empty when there is none.
  var ready: [XMLEvent] = []
  /// How the parse ended, once it has: after ``ready`` the consumer receives this.
  var end: Result<Void, any Error>?
  /// Whether the consumer stopped (its task was cancelled, or it dropped the sequence): the parse
  /// stops at its next event and nothing more is delivered.
  var isCancelled = false
  /// The consumer, suspended until a batch, the end or a cancellation arrives.
  ///
  /// Unsafe continuation: it is resumed exactly once because every transition that returns it
  /// also clears this field under the lock, and only a returned continuation is resumed;
  /// ``suspend(_:)`` asserts that no other is stored.
  var consumer: UnsafeContinuation<Void, Never>?
  /// Whether the parse is blocked on its semaphore until the consumer takes ``ready``.
  var parseWaits = false

  /// What the parse does after offering a batch.
  enum HandOverAction {
    /// The batch was taken over; resume this consumer, if one was waiting.
    case handedOver(UnsafeContinuation<Void, Never>?)
    /// A batch is still waiting: block until the consumer takes it, then offer again.
    case wait
    /// The consumer is gone: stop parsing.
    case stop
  }

  /// The parse offers `batch`, which it leaves empty when it is taken over.
  mutating func handOver(_ batch: inout [XMLEvent]) -> HandOverAction {
    if isCancelled { return .stop }
    guard ready.isEmpty else {
      parseWaits = true
      return .wait
    }
    swap(&ready, &batch)
    defer { consumer = nil }
    return .handedOver(consumer)
  }

  /// The parse ended; returns the consumer to resume.
  mutating func finish(_ result: Result<Void, any Error>) -> UnsafeContinuation<Void, Never>? {
    end = result
    defer { consumer = nil }
    return consumer
  }

  /// What the consumer receives when its local buffer is empty.
  enum TakeAction {
    /// The next batch, never empty, is in the buffer; `wakeParse` when the parse waits to hand over
    /// another.
    case batch(wakeParse: Bool)
    /// The parse ended this way (`.success` also after a cancellation: the sequence ends).
    case end(Result<Void, any Error>)
    /// Nothing yet: suspend.
    case suspend
  }

  /// The consumer takes the waiting batch into `buffer`, or the end; `buffer` comes in empty
  /// and its storage goes to the parse for a later batch.
  mutating func take(into buffer: inout [XMLEvent]) -> TakeAction {
    if !ready.isEmpty {
      swap(&buffer, &ready)
      defer { parseWaits = false }
      return .batch(wakeParse: parseWaits)
    }
    if isCancelled { return .end(.success(())) }
    if let end {
      self.end = .success(())  // the error is thrown once; later calls return nil
      return .end(end)
    }
    return .suspend
  }

  /// Stores the suspended consumer; `false` when something arrived meanwhile (resume it at once).
  mutating func suspend(_ continuation: UnsafeContinuation<Void, Never>) -> Bool {
    guard ready.isEmpty, end == nil, !isCancelled else { return false }
    assert(consumer == nil, "two consumers of one XMLEventSequence")
    consumer = continuation
    return true
  }

  /// The consumer stopped: returns the consumer to resume and whether the parse waits to be woken.
  mutating func cancel() -> (consumer: UnsafeContinuation<Void, Never>?, wakeParse: Bool) {
    isCancelled = true
    ready = []
    defer {
      consumer = nil
      parseWaits = false
    }
    return (consumer, parseWaits)
  }
}

/// The shared side of one ``XMLEventSequence``: the hand-over under a mutex, the semaphore the
/// parse blocks on, and a flag the parse reads before each event so a cancellation stops it there.
/// Effects (resuming the consumer, waking the parse) run after the lock is released.
final class XMLEventChannel: Sendable {
  /// Events in one batch, at most.
  static let batchEvents = 4_096
  /// Bytes of text (names, attribute values, character data) in one batch, about at most.
  static let batchBytes = 1 << 20

  private let state = Locked(XMLEventHandOver())
  /// Signalled once for each time the parse was told to ``XMLEventHandOver/HandOverAction/wait``.
  /// Created at 0: libdispatch traps when a semaphore is deallocated below its initial value.
  private let parseWakeUp = DispatchSemaphore(value: 0)
  /// Set with ``XMLEventHandOver/isCancelled``, read without the lock by the parse.
  private let cancelled = Atomic(false)

  /// Set by the parse's thread as it ends, whatever the outcome (read by the tests).
  private let parseEnded = Atomic(false)
  /// Run once by the first ``cancel()``: stops what feeds the parse (a byte reader), so that a
  /// parse blocked waiting for bytes sees the end.
  private let onCancel = Locked<(@Sendable () -> Void)?>(nil)

  /// Whether the consumer stopped; the parse checks it before each event.
  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Whether the parse's thread has finished its work.
  var hasParseEnded: Bool { parseEnded.load(ordering: .acquiring) }

  /// Whether the parse is blocked until the consumer takes the batch that waits (read by the tests).
  var isParseWaiting: Bool { state.withLock { $0.parseWaits } }

  /// Called by the parse's thread last.
  func parseDidEnd() { parseEnded.store(true, ordering: .releasing) }

  /// Hands `batch` over (it is left empty), blocking while another batch waits; `false` when the
  /// consumer is gone and the parse should stop.
  func handOver(_ batch: inout [XMLEvent]) -> Bool {
    while true {
      switch state.withLock({ $0.handOver(&batch) }) {
      case .handedOver(let consumer):
        consumer?.resume()
        return true
      case .wait:
        parseWakeUp.wait()
      case .stop:
        return false
      }
    }
  }

  /// Records the end of the parse and wakes the consumer.
  func finish(_ result: Result<Void, any Error>) {
    state.withLock { $0.finish(result) }?.resume()
  }

  /// Stops the parse (at its next event) and ends the sequence.
  func cancel() {
    cancelled.store(true, ordering: .relaxed)
    let (consumer, wakeParse) = state.withLock { $0.cancel() }
    if wakeParse { parseWakeUp.signal() }
    consumer?.resume()
    onCancel.withLock { $0.take() }?()
  }

  /// Runs `body` when the consumer stops (at once if it already has); once.
  func whenCancelled(_ body: @escaping @Sendable () -> Void) {
    onCancel.withLock { $0 = body }
    if isCancelled { onCancel.withLock { $0.take() }?() }
  }

  /// Replaces the empty `buffer` with the next batch (never empty) and returns `true`, or returns
  /// `false` at the end; throws the parse's error once.
  func refill(_ buffer: inout [XMLEvent], isolation actor: isolated (any Actor)? = #isolation) async throws -> Bool {
    assert(buffer.isEmpty, "a batch was replaced before all its events were returned")
    while true {
      if Task.isCancelled { cancel() }
      switch state.withLock({ $0.take(into: &buffer) }) {
      case .batch(let wakeParse):
        if wakeParse { parseWakeUp.signal() }
        return true
      case .end(let result):
        try result.get()
        return false
      case .suspend:
        await withTaskCancellationHandler {
          await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            if !state.withLock({ $0.suspend(continuation) }) { continuation.resume() }
          }
        } onCancel: {
          cancel()
        }
      }
    }
  }
}

/// Cancels the channel when the last copy of the sequence is gone and no iterator keeps it, so
/// that dropping a sequence never iterated stops the parse.
final class XMLEventConsumerLifetime: Sendable {
  let channel: XMLEventChannel

  init(_ channel: XMLEventChannel) { self.channel = channel }

  deinit { channel.cancel() }
}

/// One iteration of a sequence: cancels the channel when the iterator (and every copy of it) is
/// gone, so that breaking out of the loop stops the parse even while the sequence is kept. It
/// keeps the sequence's lifetime, so dropping the sequence during the iteration does not.
@usableFromInline
final class XMLEventIteration: Sendable {
  let lifetime: XMLEventConsumerLifetime

  init(_ lifetime: XMLEventConsumerLifetime) { self.lifetime = lifetime }

  deinit { lifetime.channel.cancel() }

  /// The iterator's slow path, when `buffer` is empty: takes the next batch into it, in reverse
  /// order, and returns its first event; `nil` at the end.
  @usableFromInline
  func next(refilling buffer: inout [XMLEvent], isolation actor: isolated (any Actor)?) async throws -> XMLEvent? {
    guard try await lifetime.channel.refill(&buffer, isolation: actor) else {
      buffer = []
      return nil
    }
    // Reversed through the buffer pointer, whose swaps move the events; `Array.reverse()` copies
    // each (a retain and a release of every string it holds).
    buffer.withUnsafeMutableBufferPointer { $0.reverse() }
    return buffer.popLast()
  }
}

/// The parse's side: collects events into a batch and hands it over when it is full.
///
/// Used only by the parse's thread, in the closures of the parse's handlers.
final class XMLEventBatcher {
  let channel: XMLEventChannel
  // Only the parse's thread touches these, and never re-entrantly (a handler does not call back
  // into the batcher), so no access can overlap: the per-access dynamic exclusivity check that a
  // class's stored property gets is left out.
  @exclusivity(unchecked) private var batch: [XMLEvent] = []
  @exclusivity(unchecked) private var bytes = 0

  #if DEBUG
    /// The parse's thread, the only one allowed to use the batcher (checked in debug builds).
    private let thread = Thread.current
  #endif

  init(_ channel: XMLEventChannel) {
    self.channel = channel
    batch.reserveCapacity(XMLEventChannel.batchEvents)
  }

  /// Adds `event`, whose text is about `size` bytes; throws `Stop` when the consumer is gone.
  func add(_ event: consuming XMLEvent, size: Int = 0) throws {
    #if DEBUG
      assert(Thread.current === thread, "an XMLEventBatcher used off its parse's thread")
    #endif
    if channel.isCancelled { throw XMLParserHandlers.Stop() }
    batch.append(event)
    bytes &+= size
    if batch.count >= XMLEventChannel.batchEvents || bytes >= XMLEventChannel.batchBytes { try flush() }
  }

  /// Hands the events collected so far over, if any.
  func flush() throws {
    guard !batch.isEmpty else { return }
    guard channel.handOver(&batch) else { throw XMLParserHandlers.Stop() }
    bytes = 0
    if batch.capacity < XMLEventChannel.batchEvents { batch.reserveCapacity(XMLEventChannel.batchEvents) }
  }
}

@available(*, unavailable)
extension XMLEventBatcher: Sendable {}
