extension Observed {
  /// The changes from now on, as an `AsyncSequence`, buffered without limit.
  ///
  /// ```swift
  /// let count = Observed(0)
  /// Task {
  ///   for await change in count.changes(options: [.initial, .new]) {
  ///     print("count is", change.newValue!)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A sequence with its own registration on this box.
  ///
  /// > Important: The registration is made by this call, so writes made before the loop starts
  /// > are buffered, in write order. Cancelling the consuming task, or dropping the sequence,
  /// > removes the registration; the sequence finishes when the box is deallocated.
  public func changes(options: ObservationOptions = [.new]) -> HandlerValues<Change<Value>> {
    handlerValues { observe(options: options, $0) }
  }
}
