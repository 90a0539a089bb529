extension Event {
  /// The payloads sent from now on, as an `AsyncSequence`, buffered without limit.
  ///
  /// ```swift
  /// let messages = Event<String>()
  /// Task {
  ///   for await message in messages.values { print(message) }
  /// }
  /// ```
  ///
  /// > Important: Registration happens when you read the property, so payloads sent before the
  /// > loop starts are buffered. Cancelling the consuming task, or dropping the sequence, removes
  /// > the registration; the sequence finishes when the event is deallocated. A loop that breaks
  /// > leaves the payloads its iterator had taken and not returned to the next loop over the same
  /// > sequence, and several tasks may iterate one sequence, each payload going to one of them, as
  /// > with `AsyncStream` (see ``HandlerValues``; tested by
  /// > `HandlerValuesConsumersTests.aLoopIteratedAgainAfterABreakGetsTheValuesTheFirstOneLeft`).
  public var values: HandlerValues<Payload> {
    values(bufferingPolicy: .unbounded)
  }

  /// The payloads sent from now on, as an `AsyncSequence`, with a buffering policy.
  ///
  /// ```swift
  /// for await position in scrolled.values(bufferingPolicy: .bufferingNewest(1)) {
  ///   render(position)   // a slow consumer only sees the newest position
  /// }
  /// ```
  ///
  /// - Parameter bufferingPolicy: What to keep while the consumer is busy: `.unbounded`,
  ///   `.bufferingNewest(n)` or `.bufferingOldest(n)`.
  /// - Returns: A sequence with its own registration on this event.
  ///
  /// > Important: Same rules as ``values``. Each call makes a new, independent registration.
  public func values(
    bufferingPolicy: AsyncStream<Payload>.Continuation.BufferingPolicy
  ) -> HandlerValues<Payload> {
    handlerValues(bufferingPolicy: bufferingPolicy) { addHandler($0) }
  }
}
