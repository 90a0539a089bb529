extension HandlerSource where Payload: Sendable {
  /// The payloads from now on, as an `AsyncSequence`, buffered without limit: the async form of
  /// every source (``Event/values`` for an event).
  ///
  /// ```swift
  /// func printAll(of source: some HandlerSource<String>) async {
  ///   for await text in source.values { print(text) }
  /// }
  /// ```
  ///
  /// > Important: Registration happens when you read the property, with ``Delivery/immediate``, so
  /// > payloads sent before the loop starts are buffered. Cancelling the consuming task, or
  /// > dropping the sequence, removes the registration (tested by
  /// > `HandlerSourceValuesTests.aSourcesValuesAreItsPayloadsAndEndWithTheLoop`).
  public var values: HandlerValues<Payload> {
    values(bufferingPolicy: .unbounded)
  }

  /// The payloads from now on, as an `AsyncSequence`, with a buffering policy.
  ///
  /// ```swift
  /// func render(positions source: some HandlerSource<Int>) async {
  ///   for await position in source.values(bufferingPolicy: .bufferingNewest(1)) { print(position) }
  /// }
  /// ```
  ///
  /// - Parameter bufferingPolicy: What to keep while the consumer is busy.
  /// - Returns: A sequence with its own registration on this source.
  ///
  /// > Important: Same rules as ``values``.
  public func values(
    bufferingPolicy: AsyncStream<Payload>.Continuation.BufferingPolicy
  ) -> HandlerValues<Payload> {
    handlerValues(bufferingPolicy: bufferingPolicy) { addHandler($0) }
  }
}
