/// A key under which a value of type `Value` is attached to any class instance and released with it.
///
/// Create each key once, as a `static let`, and read and write values through it:
///
/// ```swift
/// enum Keys {
///   static let note = AssociatedKey<String>()
/// }
/// let widget = Widget()
/// Keys.note.setValue("draft", for: widget)
/// print(Keys.note.value(for: widget) ?? "none")   // prints "draft"
/// Keys.note.removeValue(for: widget)
/// ```
///
/// This is the Swift form of Objective-C's associated objects: the object's class needs no stored
/// property and no conformance. Two keys never see each other's values, even with the same `Value`
/// type; copies of a key are the same key.
///
/// On Apple platforms the value is held with `objc_setAssociatedObject` and released when the
/// object is deallocated. On Linux, which has no deallocation hook, a side table holds it: a dead
/// object's value is never returned, not even to a new object at the same address, and it is
/// released within `n` later calls of any key's methods, `n` being the number of values attached
/// then (see the article <doc:AssociatedValuesAndConfiguration>).
///
/// > Important: Every method is safe from any thread. A value's `deinit` never runs while the
/// > table's lock is held, so it may read or write associated values itself.
public struct AssociatedKey<Value: Sendable>: Sendable, Hashable {
  /// A process-unique address: the Objective-C association key, and the key's identity in the
  /// Linux side table. Allocated once per key and never freed, so no later key can reuse it.
  @usableFromInline let address: UInt

  /// Creates a new key, distinct from every other key.
  ///
  /// ```swift
  /// static let title = AssociatedKey<String>()
  /// ```
  ///
  /// > Important: Each key reserves a few bytes for the life of the process, so create keys once
  /// > (as `static let` constants), not per object.
  public init() {
    address = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
  }

  /// The value attached to `object` under this key, or `nil` if there is none.
  ///
  /// ```swift
  /// let note = Keys.note.value(for: widget) ?? "none"
  /// ```
  ///
  /// - Parameter object: Any class instance.
  /// - Returns: The value last set for `object`, or `nil`.
  ///
  /// > Important: Safe from any thread. Inside `object`'s own `deinit` this returns the value on
  /// > Apple platforms; on Linux it returns the value unless the side table has released it
  /// > already (the object counts as dead from the start of its `deinit`).
  @inlinable  // Specialised for the caller's `Value`: no generic metadata lookup (suite `associated-cost`).
  public func value(for object: AnyObject) -> Value? {
    AssociationStorage.box(AssociatedBox<Value>.self, on: object, key: address)?.value
  }

  /// Attaches `value` to `object` under this key, replacing and releasing any previous value.
  ///
  /// ```swift
  /// Keys.note.setValue("draft", for: widget)
  /// ```
  ///
  /// - Parameters:
  ///   - value: The value to keep; held strongly until `object` is deallocated or it is replaced
  ///     or removed.
  ///   - object: Any class instance. It is not retained.
  ///
  /// > Important: Safe from any thread. Do not capture `object` strongly in `value`: that is a
  /// > retain cycle, and neither would ever be released (a ``WeakAssociatedKey`` holds an object
  /// > without retaining it). On Linux a value set from inside `object`'s own `deinit` is released
  /// > at once if `object` has no other value, otherwise with its other values.
  @inlinable  // As `value(for:)`.
  public func setValue(_ value: Value, for object: AnyObject) {
    AssociationStorage.setBox(AssociatedBox(value), on: object, key: address)
  }

  /// Detaches and releases the value attached to `object` under this key, if any.
  ///
  /// ```swift
  /// Keys.note.removeValue(for: widget)
  /// ```
  ///
  /// - Parameter object: Any class instance.
  ///
  /// > Important: Safe from any thread. The value is released before this returns, unless another
  /// > thread holds it right now (it just read it).
  public func removeValue(for object: AnyObject) {
    AssociationStorage.setBox(nil, on: object, key: address)
  }

  /// Atomically replaces the value with what `transform` returns for the current one (`nil`
  /// removes it). `transform` must not touch associated values: it runs under a lock. The
  /// replaced value is released after every lock is released.
  func update(for object: AnyObject, _ transform: (Value?) -> Value?) {
    AssociationStorage.updateBox(AssociatedBox<Value>.self, on: object, key: address) { box in
      transform(box?.value).map(AssociatedBox.init)
    }
  }
}

/// Holds one associated value as an object, as both the Objective-C runtime and the Linux side
/// table store objects.
@usableFromInline
final class AssociatedBox<Value: Sendable>: Sendable {
  /// The user's value.
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}
