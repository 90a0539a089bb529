/// What an observation reports, with the meaning of Key-Value Observing's options.
///
/// ```swift
/// let count = Observed(0)
/// count.observe(options: [.old, .new]) { change in
///   print(change.oldValue!, "->", change.newValue!)
/// }
/// count.value = 1   // prints "0 -> 1"
/// ```
///
/// Every write sends one callback *after* the write, whatever the options; the options say what it
/// carries and which extra callbacks come:
///
/// | option | effect |
/// |---|---|
/// | ``new`` | callbacks after a write, and the ``initial`` one, carry ``Change/newValue`` |
/// | ``old`` | callbacks after a write, and ``prior`` ones, carry ``Change/oldValue`` |
/// | ``initial`` | one callback at registration, before `observe` returns (or enqueued by then) |
/// | ``prior`` | one more callback before each write, with ``Change/isPrior`` set and no new value |
///
/// > Important: Options only choose what is reported; they never change where or when the handler
/// > runs (that is the ``Delivery``).
public struct ObservationOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8

  /// Creates a set of options from its raw bits.
  ///
  /// ```swift
  /// let options = ObservationOptions(rawValue: 0b0011)   // [.new, .old]
  /// ```
  ///
  /// - Parameter rawValue: ``new`` is bit 0, ``old`` bit 1, ``initial`` bit 2, ``prior`` bit 3.
  @inlinable
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// Callbacks after a write (and the initial one) carry the new value.
  ///
  /// ```swift
  /// count.observe(options: .new) { print($0.newValue!) }
  /// ```
  @inlinable public static var new: ObservationOptions { ObservationOptions(rawValue: 1 << 0) }

  /// Callbacks after a write (and prior ones) carry the value before the write.
  ///
  /// ```swift
  /// count.observe(options: .old) { print("was", $0.oldValue!) }
  /// ```
  @inlinable public static var old: ObservationOptions { ObservationOptions(rawValue: 1 << 1) }

  /// One callback with the current value at registration, before `observe` returns.
  ///
  /// ```swift
  /// count.observe(options: [.initial, .new]) { print($0.newValue!) }   // prints at once
  /// ```
  @inlinable public static var initial: ObservationOptions { ObservationOptions(rawValue: 1 << 2) }

  /// One more callback before each write (``Change/isPrior`` is `true`): the will-change moment.
  ///
  /// ```swift
  /// count.observe(options: [.prior, .old]) { change in
  ///   if change.isPrior { print("about to change from", change.oldValue!) }
  /// }
  /// ```
  @inlinable public static var prior: ObservationOptions { ObservationOptions(rawValue: 1 << 3) }
}

extension ObservationOptions {
  /// The change reported at registration.
  @inlinable
  func initialChange<Value>(_ value: Value) -> Change<Value> {
    Change(oldValue: nil, newValue: contains(.new) ? value : nil, isPrior: false)
  }

  /// The change reported before a write.
  @inlinable
  func priorChange<Value>(old: Value) -> Change<Value> {
    Change(oldValue: contains(.old) ? old : nil, newValue: nil, isPrior: true)
  }

  /// The change reported after a write.
  @inlinable
  func postChange<Value>(old: Value?, new: Value) -> Change<Value> {
    Change(oldValue: contains(.old) ? old : nil, newValue: contains(.new) ? new : nil, isPrior: false)
  }
}
