/// One observation callback's report: the old value, the new value, and whether it comes before
/// the write.
///
/// ```swift
/// let name = Observed("draft")
/// name.observe(options: [.old, .new, .prior]) { change in
///   if change.isPrior {
///     print("will change from", change.oldValue!)
///   } else {
///     print(change.oldValue!, "->", change.newValue!)
///   }
/// }
/// name.value = "final"
/// ```
///
/// Which fields are set depends on the ``ObservationOptions`` of the registration, exactly as in
/// Key-Value Observing: ``oldValue`` only with ``ObservationOptions/old`` (never in the initial
/// callback), ``newValue`` only with ``ObservationOptions/new`` (never in a prior callback).
///
/// > Important: A value type; it is `Sendable` when `Value` is.
public struct Change<Value> {
  /// The value before the write; `nil` unless the registration asked for ``ObservationOptions/old``,
  /// and always `nil` in the initial callback.
  public let oldValue: Value?
  /// The value after the write (or the current value in the initial callback); `nil` unless the
  /// registration asked for ``ObservationOptions/new``, and always `nil` in a prior callback.
  public let newValue: Value?
  /// Whether this callback comes before the write (``ObservationOptions/prior``).
  public let isPrior: Bool

  /// Creates a change report, for example to test your own handler.
  ///
  /// ```swift
  /// handler(Change(oldValue: 1, newValue: 2))
  /// ```
  ///
  /// - Parameters:
  ///   - oldValue: The value before the write.
  ///   - newValue: The value after the write.
  ///   - isPrior: Whether the report comes before the write.
  @inlinable
  public init(oldValue: Value? = nil, newValue: Value? = nil, isPrior: Bool = false) {
    self.oldValue = oldValue
    self.newValue = newValue
    self.isPrior = isPrior
  }
}

extension Change: Sendable where Value: Sendable {}
extension Change: Equatable where Value: Equatable {}
extension Change: Hashable where Value: Hashable {}

extension Change: CustomStringConvertible {
  public var description: String {
    func text(_ value: Value?) -> String { value.map { "\($0)" } ?? "nil" }
    return "Change(old: \(text(oldValue)), new: \(text(newValue))\(isPrior ? ", prior" : ""))"
  }
}
