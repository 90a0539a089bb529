/// A key under which an object is attached to any class instance *without being retained*: it
/// reads `nil` once the attached object has been deallocated (BlocksKit's
/// `bk_weaklyAssociateValue:withKey:`).
///
/// ```swift
/// enum Keys {
///   static let parent = WeakAssociatedKey<Widget>()
/// }
/// let child = Widget()
/// var parent: Widget? = Widget()
/// Keys.parent.setValue(parent!, for: child)
/// print(Keys.parent.value(for: child) === parent)   // prints "true"
/// parent = nil                                        // not kept alive by the association
/// print(Keys.parent.value(for: child) == nil)        // prints "true"
/// ```
///
/// Use it where an ``AssociatedKey`` would make a retain cycle: an object that points back at
/// something that owns it, or a value attached to itself. The attached object is held by a Swift
/// `weak` reference, which the runtime sets to `nil` when the object is deallocated, so a read
/// never returns a freed object. On Apple platforms the weak reference sits in a small box held
/// with `objc_setAssociatedObject` and `OBJC_ASSOCIATION_RETAIN` (not `OBJC_ASSOCIATION_ASSIGN`,
/// whose unretained pointer dangles once its object is freed); on Linux the box is in
/// ``AssociatedKey``'s side table. Either way the box is released with the object it is attached
/// to, as an ``AssociatedKey``'s value is.
///
/// > Important: Every method is safe from any thread, also while another thread releases the
/// > attached object: a read returns the object, retained for the caller, or `nil`.
public struct WeakAssociatedKey<Value: AnyObject & Sendable>: Sendable, Hashable {
  /// A process-unique address, as ``AssociatedKey``'s; never freed, so no later key reuses it.
  let address: UInt

  /// Creates a new key, distinct from every other key (weak or not).
  ///
  /// ```swift
  /// static let delegate = WeakAssociatedKey<Widget>()
  /// ```
  ///
  /// > Important: Each key reserves a few bytes for the life of the process, so create keys once
  /// > (as `static let` constants), not per object.
  public init() {
    address = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
  }

  /// The object attached to `object` under this key, or `nil` if there is none or it has been
  /// deallocated.
  ///
  /// ```swift
  /// if let parent = Keys.parent.value(for: child) { print("attached to", parent) }
  /// ```
  ///
  /// - Parameter object: Any class instance.
  /// - Returns: The attached object, retained for the caller, or `nil`.
  ///
  /// > Important: Safe from any thread. On Linux, inside `object`'s own `deinit` this may return
  /// > `nil` (the object counts as dead, and the side table may have released the box already).
  public func value(for object: AnyObject) -> Value? {
    AssociationStorage.box(WeakBox<Value>.self, on: object, key: address)?.object
  }

  /// Attaches `value` to `object` under this key without retaining it, replacing any previous
  /// value.
  ///
  /// ```swift
  /// Keys.parent.setValue(parent!, for: child)
  /// ```
  ///
  /// - Parameters:
  ///   - value: The object to attach; not retained. Once it is deallocated the key reads `nil`.
  ///   - object: Any class instance; not retained either. It may be `value` itself.
  ///
  /// > Important: Safe from any thread.
  public func setValue(_ value: Value, for object: AnyObject) {
    AssociationStorage.setBox(WeakBox(value), on: object, key: address)
  }

  /// Detaches the value attached to `object` under this key, if any.
  ///
  /// ```swift
  /// Keys.parent.removeValue(for: child)
  /// ```
  ///
  /// - Parameter object: Any class instance.
  ///
  /// > Important: Safe from any thread. The attached object itself is not released (it was never
  /// > retained); the box that referred to it is.
  public func removeValue(for object: AnyObject) {
    AssociationStorage.setBox(nil, on: object, key: address)
  }
}
