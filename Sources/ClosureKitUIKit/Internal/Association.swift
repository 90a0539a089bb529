#if canImport(UIKit)
  import ObjectiveC

  /// Objective-C associated objects: values retained by an object and released with it.
  enum Association {
    /// A key unique to `Type`: the address of its type metadata, stable for the process.
    static func key(for type: Any.Type) -> UnsafeRawPointer {
      UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type)))!
    }

    /// The value attached to `object` under `Type`'s key, created by `make` on first use.
    static func value<Value: AnyObject>(
      of object: AnyObject,
      as type: Value.Type = Value.self,
      make: () -> Value
    ) -> Value {
      let key = key(for: Value.self)
      if let existing = objc_getAssociatedObject(object, key) as? Value { return existing }
      let created = make()
      objc_setAssociatedObject(object, key, created, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      return created
    }

    /// The value attached to `object` under `Type`'s key, if any.
    static func existingValue<Value: AnyObject>(of object: AnyObject, as type: Value.Type) -> Value? {
      objc_getAssociatedObject(object, key(for: Value.self)) as? Value
    }

    /// Attaches `value` to `object` under `key` (nil detaches).
    static func set(_ value: AnyObject?, on object: AnyObject, key: UnsafeRawPointer) {
      objc_setAssociatedObject(object, key, value, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }
  }
#endif
