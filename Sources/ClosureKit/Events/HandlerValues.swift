/// The values a registered handler receives, as an `AsyncSequence`: what ``Event/values``
/// returns.
///
/// ```swift
/// let messages = Event<String>()
/// let values: HandlerValues<String> = messages.values
/// Task {
///   for await message in values { print(message) }
/// }
/// ```
///
/// It behaves as the `AsyncStream` it replaces: the same buffering policies, end, cancellation and
/// several consumers. It differs in cost: with the default, unbounded buffering, a consumer that
/// fell behind takes every value that waits in one lock round, then returns them one by one from
/// its iterator's own buffer, without a lock or a suspension. With `.bufferingNewest(_:)` or
/// `.bufferingOldest(_:)` it takes one value per lock round, so that the limit counts every value
/// not taken, as `AsyncStream`'s does.
///
/// > Important: The sequence ends when its source is gone, after the values that wait.
/// > Cancelling a consuming task, or dropping the sequence and its iterators, removes the
/// > registration; the values already waiting are still returned, then `nil`. Several tasks may
/// > iterate one sequence at once, as with `AsyncStream`: each value goes to one of them (the one
/// > that has waited longest, or the first to find it waiting, which takes every value then
/// > waiting), the end resumes every waiting consumer with `nil`, and cancelling one consuming
/// > task ends the sequence for all of them (tested by
/// > `HandlerValuesConsumersTests.theEndResumesEveryWaitingConsumer` and
/// > `HandlerValuesConsumersTests.cancellingOneConsumerEndsTheSequenceForEveryConsumer`). A loop
/// > that breaks leaves the values its iterator had taken and not returned to the next iterator,
/// > as `AsyncStream` does (tested by
/// > `HandlerValuesConsumersTests.aLoopIteratedAgainAfterABreakGetsTheValuesTheFirstOneLeft`).
public struct HandlerValues<Element: Sendable>: AsyncSequence, Sendable {
  /// The registration, the shared buffer, and the end of both.
  @usableFromInline let lifetime: HandlerValuesLifetime<Element>

  init(lifetime: HandlerValuesLifetime<Element>) {
    self.lifetime = lifetime
  }

  /// Creates an iterator.
  ///
  /// ```swift
  /// var iterator = event.values.makeAsyncIterator()
  /// let first = await iterator.next()
  /// ```
  ///
  /// - Returns: A new iterator. Several iterators of one sequence share its values: each value
  ///   goes to one of them.
  public func makeAsyncIterator() -> Iterator {
    Iterator(lifetime: lifetime)
  }

  /// Iterates the values.
  ///
  /// ```swift
  /// var iterator = event.values.makeAsyncIterator()
  /// while let value = await iterator.next() { print(value) }
  /// ```
  public struct Iterator: AsyncIteratorProtocol {
    /// The values taken from the shared buffer and not returned yet, and the registration.
    @usableFromInline let buffer: HandlerValuesBuffer<Element>

    init(lifetime: HandlerValuesLifetime<Element>) {
      buffer = HandlerValuesBuffer(lifetime)
    }

    /// The next value, on the caller's actor: from the iterator's buffer, or from the shared one,
    /// waiting for it.
    ///
    /// ```swift
    /// let value = await iterator.next(isolation: #isolation)
    /// ```
    ///
    /// - Parameter actor: The caller's actor. The call does not leave it: a value in the
    ///   iterator's buffer returns at once; otherwise the call takes the shared buffer's lock, and
    ///   when nothing waits there it suspends on `actor` and is resumed onto it, one executor job
    ///   (tested by `HandlerValuesIsolationTests.aWaitingNextIsResumedOntoTheCallersActor`).
    /// - Returns: The next value, or `nil` once the sequence ended.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      // The fast path, inlined into the consumer: a value taken earlier in one lock round.
      if let value = buffer.values.popLast() { return value }
      return await buffer.next(isolation: actor)
    }

    /// The next value, waiting for it.
    ///
    /// ```swift
    /// let value = await iterator.next()
    /// ```
    ///
    /// - Returns: The next value, or `nil` once the sequence ended.
    @inlinable
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }
  }
}
