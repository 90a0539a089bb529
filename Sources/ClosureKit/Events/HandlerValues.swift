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
/// It behaves as the `AsyncStream` it replaces, with one difference in cost: with the default,
/// unbounded buffering, a consumer that fell behind takes every value that waits in one lock
/// round, then returns them one by one from a buffer of its own, without a lock or a suspension.
/// With `.bufferingNewest(_:)` or `.bufferingOldest(_:)` it takes one value per lock round, so
/// that the limit counts every value the consumer has not taken, as `AsyncStream`'s does.
///
/// > Important: One consumer per sequence. The sequence ends when its source is gone, after the
/// > values that wait. Cancelling the consuming task, or dropping the sequence and its iterator,
/// > removes the registration; the values already taken into the iterator's buffer are still
/// > returned, then `nil`.
public struct HandlerValues<Element: Sendable>: AsyncSequence, Sendable {
  /// The registration, the shared buffer, and the end of both.
  @usableFromInline let lifetime: HandlerValuesLifetime<Element>

  init(lifetime: HandlerValuesLifetime<Element>) {
    self.lifetime = lifetime
  }

  /// Creates the iterator.
  ///
  /// ```swift
  /// var iterator = event.values.makeAsyncIterator()
  /// let first = await iterator.next()
  /// ```
  ///
  /// - Returns: The iterator; use one per sequence.
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
    /// The registration and the shared buffer.
    @usableFromInline let lifetime: HandlerValuesLifetime<Element>
    /// The rest of the values taken from the shared buffer in one lock round, in reverse order:
    /// the next value is the last, so that it is moved out, not copied.
    @usableFromInline var buffer: [Element] = []

    init(lifetime: HandlerValuesLifetime<Element>) {
      self.lifetime = lifetime
    }

    /// The next value, on the caller's actor: from the iterator's buffer, or from the shared one,
    /// waiting for it.
    ///
    /// ```swift
    /// let value = await iterator.next(isolation: #isolation)
    /// ```
    ///
    /// - Parameter actor: The caller's actor; the iterator does not leave it.
    /// - Returns: The next value, or `nil` once the sequence ended.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      // The fast path, inlined into the consumer: a value taken earlier in one lock round.
      if let value = buffer.popLast() { return value }
      return await lifetime.next(refilling: &buffer, isolation: actor)
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
