/// The storage shared by a ``HandlerValues`` sequence, its iterators and the handler that feeds it.
final class HandlerValuesStorage<Element: Sendable>: Sendable {
  let state: Locked<HandlerValuesState<Element>>

  init(policy: AsyncStream<Element>.Continuation.BufferingPolicy) {
    state = Locked(HandlerValuesState(policy: policy))
  }

  /// The handler's side: hands `value` to the longest-waiting consumer, or keeps it.
  func receive(_ value: Element) {
    state.withLock { $0.receive(value) }?.resume(returning: value)
  }

  /// Ends the sequence after the values that wait; every waiting consumer gets `nil`.
  func finish() {
    for consumer in state.withLock({ $0.finish() }) { consumer.resume(returning: nil) }
  }

  /// What a consumer whose buffer is empty does next.
  enum NextStep {
    /// Return this: a value, or `nil` at the end.
    case returns(Element?)
    /// Wait (``wait(isolation:onCancel:)``).
    case waits
  }

  /// The consumer's side, when its buffer is empty, without suspending: fills `buffer` with every
  /// waiting value, in reverse order, and returns the first; or returns the next value or the
  /// end; or says to wait.
  func take(refilling buffer: inout [Element]) -> NextStep {
    assert(buffer.isEmpty, "values were taken before the buffered ones were returned")
    switch state.withLock({ $0.take(into: &buffer) }) {
    case .batch:
      // Reversed through the buffer pointer, whose swaps move the values (`Array.reverse()`
      // copies each: a retain and a release per reference it holds).
      buffer.withUnsafeMutableBufferPointer { $0.reverse() }
      return .returns(buffer.popLast())
    case .one(let value): return .returns(value)
    case .end: return .returns(nil)
    case .suspend: return .waits
    }
  }

  /// Waits for the next value, behind the consumers already waiting, on the caller's actor: the
  /// consumer queues itself without leaving `actor`, and is resumed onto it.
  func wait(isolation actor: isolated (any Actor)?, onCancel: @Sendable () -> Void) async -> Element? {
    await withTaskCancellationHandler {
      // Capturing `actor` isolates this closure to it (SE-0420), and so the continuation below
      // (its `#isolation`). Without the capture the closure is nonisolated: the consumer would leave
      // the caller's actor to queue itself and be resumed on the global executor, then hop back
      // (two executor jobs instead of one).
      _ = actor
      return await withUnsafeContinuation { (consumer: UnsafeContinuation<Element?, Never>) in
        if case .resume(let value) = state.withLock({ $0.suspend(consumer) }) {
          consumer.resume(returning: value)
        }
      }
    } onCancel: {
      onCancel()
    }
  }

  /// A dropped iterator returns the values it had taken and not returned, in reverse order: they
  /// go to the waiting consumers, longest-waiting first, and the rest in front of the values that
  /// wait. `leftovers` is left empty.
  func giveBack(_ leftovers: inout [Element]) {
    for (consumer, value) in state.withLock({ $0.giveBack(&leftovers) }) {
      consumer.resume(returning: value)
    }
  }
}

/// Finishes a ``HandlerValuesStorage`` when the handler that feeds it is released (its source is
/// gone).
final class HandlerValuesFinisher<Element: Sendable>: Sendable {
  let storage: HandlerValuesStorage<Element>

  init(_ storage: HandlerValuesStorage<Element>) { self.storage = storage }

  deinit { storage.finish() }
}

/// Ends the registration when the sequence's consumers stop: a consuming task is cancelled, or
/// the last copy of the sequence and of its iterators is gone.
@usableFromInline
final class HandlerValuesLifetime<Element: Sendable>: Sendable {
  let storage: HandlerValuesStorage<Element>
  let subscription: HandlerSubscription

  init(_ storage: HandlerValuesStorage<Element>, subscription: HandlerSubscription) {
    self.storage = storage
    self.subscription = subscription
  }

  /// A consumer stopped: no new value is kept, the registration ends, every waiting consumer gets
  /// `nil` (the values that wait are still returned, then `nil`).
  func terminate() {
    storage.finish()
    subscription.cancel()
  }

  deinit { terminate() }
}

/// The values one iterator took from the shared buffer in one lock round and has not returned
/// yet, and the registration. Copies of an iterator share it; when the last is dropped, the
/// values it still holds go back to the shared buffer, so that the next iterator returns them.
@usableFromInline
final class HandlerValuesBuffer<Element: Sendable> {
  /// The registration and the shared buffer.
  @usableFromInline let lifetime: HandlerValuesLifetime<Element>
  /// The rest of the values taken in one lock round, in reverse order: the next value is the
  /// last, so that it is moved out, not copied.
  ///
  /// Unchecked exclusivity (the consumer's fast path reads it once per value, and a checked access
  /// costs two runtime calls): no access overlaps another. This class is not `Sendable`, so one
  /// isolation domain at a time uses it, and every access is synchronous: the iterator's
  /// `popLast()`, ``HandlerValuesStorage/take(refilling:)`` under the lock, and `deinit`. None
  /// spans a suspension, and none runs code that could reach this buffer again.
  @exclusivity(unchecked) @usableFromInline var values: [Element] = []

  init(_ lifetime: HandlerValuesLifetime<Element>) {
    self.lifetime = lifetime
  }

  /// The next value when ``values`` is empty: the waiting values, taken in one lock round, or the
  /// next one, waiting for it on the caller's actor; `nil` at the end. Cancelling the consuming
  /// task terminates the sequence.
  @usableFromInline
  func next(isolation actor: isolated (any Actor)?) async -> Element? {
    if case .returns(let value) = lifetime.storage.take(refilling: &values) { return value }
    return await lifetime.storage.wait(isolation: actor) { [lifetime] in lifetime.terminate() }
  }

  deinit {
    if !values.isEmpty { lifetime.storage.giveBack(&values) }
  }
}

@available(*, unavailable) extension HandlerValuesBuffer: Sendable {}

/// A ``HandlerValues`` fed by the handler that `register` registers.
func handlerValues<Element: Sendable>(
  bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
  register: (_ handler: @escaping @Sendable (Element) -> Void) -> HandlerSubscription
) -> HandlerValues<Element> {
  let storage = HandlerValuesStorage<Element>(policy: bufferingPolicy)
  let finisher = HandlerValuesFinisher(storage)
  let subscription = register { value in finisher.storage.receive(value) }
  return HandlerValues(lifetime: HandlerValuesLifetime(storage, subscription: subscription))
}
