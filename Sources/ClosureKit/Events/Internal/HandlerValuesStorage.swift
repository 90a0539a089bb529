/// The state of one ``HandlerValues`` sequence: the values its handler received and its consumer
/// has not taken, the end, and the suspended consumer. A pure state machine: each transition
/// returns what to do after the lock is released.
struct HandlerValuesState<Element: Sendable> {
  /// What to keep while the consumer is busy.
  let policy: AsyncStream<Element>.Continuation.BufferingPolicy
  /// The values received and not taken, from ``head`` on.
  var pending: [Element] = []
  /// The first value of ``pending`` not taken yet (bounded policies take one value at a time).
  var head = 0
  /// Whether the sequence ended: its source is gone, or its consumer stopped. Values still in
  /// ``pending`` are delivered; no new value is kept.
  var isFinished = false
  /// The consumer, suspended until a value or the end arrives (`nil` resumes it at the end).
  ///
  /// Unsafe continuation: it is resumed exactly once because ``receive(_:)`` and ``finish()``
  /// clear this field under the lock as they return it, and only a returned continuation is
  /// resumed; ``suspend(_:)`` asserts that no other is stored.
  var consumer: UnsafeContinuation<Element?, Never>?

  init(policy: AsyncStream<Element>.Continuation.BufferingPolicy) {
    self.policy = policy
  }

  /// How many values wait for the consumer.
  var count: Int { pending.count - head }

  /// A value was sent: returns the suspended consumer to resume with it, if there is one.
  mutating func receive(_ value: Element) -> UnsafeContinuation<Element?, Never>? {
    if isFinished { return nil }
    if let consumer {
      assert(count == 0, "a consumer waited while values were buffered")
      self.consumer = nil
      return consumer
    }
    switch policy {
    case .unbounded:
      pending.append(value)
    case .bufferingOldest(let limit):
      if count < limit { pending.append(value) }
    case .bufferingNewest(let limit):
      guard limit > 0 else { return nil }
      if count == limit { head += 1 }
      if head > 32 && head * 2 > pending.count {
        pending.removeFirst(head)
        head = 0
      }
      pending.append(value)
    @unknown default:
      pending.append(value)
    }
    return nil
  }

  /// What the consumer gets when its own buffer is empty.
  enum TakeAction {
    /// Every waiting value is now in the consumer's buffer (unbounded policy).
    case batch
    /// The next value (bounded policies take one at a time, so the limit counts every value the
    /// consumer has not taken, as `AsyncStream`'s does).
    case one(Element)
    /// The sequence ended and nothing is left.
    case end
    /// Nothing yet: suspend.
    case suspend
  }

  /// Takes what waits; `buffer` comes in empty, and its storage is kept for later values.
  mutating func take(into buffer: inout [Element]) -> TakeAction {
    if count > 0 {
      if case .unbounded = policy {
        // The values before `head` were taken one at a time (``suspend(_:)`` pops one when values
        // arrived between a take and the suspension): they go, so that the batch holds only
        // waiting values and the empty buffer it leaves starts at 0.
        if head > 0 {
          pending.removeFirst(head)
          head = 0
        }
        swap(&buffer, &pending)
        return .batch
      }
      return .one(popFirst())
    }
    return isFinished ? .end : .suspend
  }

  /// Removes and returns the oldest pending value (there is one: `count > 0`); the storage is
  /// kept for later values once the last is taken.
  private mutating func popFirst() -> Element {
    let value = pending[head]
    head += 1
    if head == pending.count {
      pending.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// What becomes of a consumer about to suspend.
  enum SuspendAction {
    /// It waits: the continuation is stored.
    case suspended
    /// A value or the end (`nil`) arrived since ``take(into:)``: resume it with this at once.
    case resume(Element?)
  }

  /// Stores the suspended consumer, unless a value or the end arrived since ``take(into:)``.
  mutating func suspend(_ continuation: UnsafeContinuation<Element?, Never>) -> SuspendAction {
    if count > 0 {
      return .resume(popFirst())
    }
    if isFinished { return .resume(nil) }
    assert(consumer == nil, "two consumers of one HandlerValues iterator")
    consumer = continuation
    return .suspended
  }

  /// The sequence ends: returns the suspended consumer to resume with `nil`.
  mutating func finish() -> UnsafeContinuation<Element?, Never>? {
    isFinished = true
    defer { consumer = nil }
    return consumer
  }
}

/// The storage shared by a ``HandlerValues`` sequence, its iterator and the handler that feeds it.
final class HandlerValuesStorage<Element: Sendable>: Sendable {
  let state: Locked<HandlerValuesState<Element>>

  init(policy: AsyncStream<Element>.Continuation.BufferingPolicy) {
    state = Locked(HandlerValuesState(policy: policy))
  }

  /// The handler's side: keeps `value` for the consumer, or hands it to the waiting consumer.
  func receive(_ value: Element) {
    state.withLock { $0.receive(value) }?.resume(returning: value)
  }

  /// Ends the sequence after the values that wait.
  func finish() {
    state.withLock { $0.finish() }?.resume(returning: nil)
  }

  /// The consumer's side, when its buffer is empty: fills `buffer` with every waiting value, in
  /// reverse order, and returns the first, or returns the next value, waiting for it; `nil` at
  /// the end.
  func next(
    refilling buffer: inout [Element], isolation actor: isolated (any Actor)?, onCancel: @Sendable () -> Void
  ) async -> Element? {
    assert(buffer.isEmpty, "values were taken before the buffered ones were returned")
    switch state.withLock({ $0.take(into: &buffer) }) {
    case .batch:
      // Reversed through the buffer pointer, whose swaps move the values (`Array.reverse()`
      // copies each: a retain and a release per reference it holds).
      buffer.withUnsafeMutableBufferPointer { $0.reverse() }
      return buffer.popLast()
    case .one(let value): return value
    case .end: return nil
    case .suspend: break
    }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
        if case .resume(let value) = state.withLock({ $0.suspend(continuation) }) {
          continuation.resume(returning: value)
        }
      }
    } onCancel: {
      onCancel()
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

/// Ends the registration when the sequence's consumer stops: its task is cancelled, or the last
/// copy of the sequence and of its iterator is gone.
@usableFromInline
final class HandlerValuesLifetime<Element: Sendable>: Sendable {
  let storage: HandlerValuesStorage<Element>
  let subscription: Subscription

  init(_ storage: HandlerValuesStorage<Element>, subscription: Subscription) {
    self.storage = storage
    self.subscription = subscription
  }

  /// The consumer's side when its buffer is empty (see ``HandlerValuesStorage/next(refilling:isolation:onCancel:)``);
  /// cancelling the consuming task terminates the sequence.
  @usableFromInline
  func next(refilling buffer: inout [Element], isolation actor: isolated (any Actor)?) async -> Element? {
    await storage.next(refilling: &buffer, isolation: actor) { self.terminate() }
  }

  /// The consumer stopped: no new value is kept, the registration ends, a waiting consumer gets `nil`.
  func terminate() {
    storage.finish()
    subscription.cancel()
  }

  deinit { terminate() }
}

/// A ``HandlerValues`` fed by the handler that `register` registers.
func handlerValues<Element: Sendable>(
  bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
  register: (_ handler: @escaping @Sendable (Element) -> Void) -> Subscription
) -> HandlerValues<Element> {
  let storage = HandlerValuesStorage<Element>(policy: bufferingPolicy)
  let finisher = HandlerValuesFinisher(storage)
  let subscription = register { value in finisher.storage.receive(value) }
  return HandlerValues(lifetime: HandlerValuesLifetime(storage, subscription: subscription))
}
