#if canImport(ObjectiveC)
  import ObjectiveC
  import Synchronization
#endif

/// Where ``AssociatedKey`` and ``WeakAssociatedKey`` keep their boxes: the Objective-C runtime's
/// associated objects on Apple platforms, ``AssociationTable`` elsewhere. Every box is held
/// strongly (`OBJC_ASSOCIATION_RETAIN`): a weak key stores a strong box that holds a Swift `weak`
/// reference, never an `OBJC_ASSOCIATION_ASSIGN` pointer, which would dangle once its object is
/// freed.
///
/// Each object that has a value also has a ``KeyRegistry``, stored the same way under its own
/// key, listing every key ever set on it, so that ``removeAll(from:)`` removes ClosureKit's values
/// and nothing else (`objc_removeAssociatedObjects` would also remove other libraries' values).
enum AssociationStorage {
  /// The box stored on `object` under `address`, or `nil`. Every box stored under one address
  /// has the same type, `Box`.
  static func box<Box: AnyObject>(_ type: Box.Type, on object: AnyObject, key address: UInt) -> Box? {
    #if canImport(ObjectiveC)
      objc_getAssociatedObject(object, pointer(address)) as? Box
    #else
      guard let box = AssociationTable.shared.value(for: object, key: address) else { return nil }
      return unsafeDowncast(box, to: Box.self)
    #endif
  }

  /// Stores `box` on `object` under `address` (`nil` removes it); the replaced box is released
  /// after every lock is released.
  static func setBox(_ box: AnyObject?, on object: AnyObject, key address: UInt) {
    if box != nil { register(address, on: object) }
    #if canImport(ObjectiveC)
      objc_setAssociatedObject(object, pointer(address), box, .OBJC_ASSOCIATION_RETAIN)
    #else
      AssociationTable.shared.setValue(box, for: object, key: address)
    #endif
  }

  /// Atomically replaces the box with what `transform` returns for the current one (`nil`
  /// removes it). `transform` must not touch associated values (it runs under a lock). The
  /// replaced box is released after every lock is released.
  static func updateBox<Box: AnyObject>(
    _ type: Box.Type,
    on object: AnyObject,
    key address: UInt,
    _ transform: (Box?) -> Box?
  ) {
    register(address, on: object)
    #if canImport(ObjectiveC)
      let old: Box? = associationUpdateLock.withLock { _ in
        let old = objc_getAssociatedObject(object, pointer(address)) as? Box
        objc_setAssociatedObject(object, pointer(address), transform(old), .OBJC_ASSOCIATION_RETAIN)
        return old
      }
      withExtendedLifetime(old) {}
    #else
      AssociationTable.shared.update(for: object, key: address) { box in
        transform(box.map { unsafeDowncast($0, to: Box.self) })
      }
    #endif
  }

  /// Removes every box stored through this type on `object`, releasing each after the locks.
  static func removeAll(from object: AnyObject) {
    guard let registry = box(KeyRegistry.self, on: object, key: registryAddress) else { return }
    for address in registry.addresses {
      #if canImport(ObjectiveC)
        objc_setAssociatedObject(object, pointer(address), nil, .OBJC_ASSOCIATION_RETAIN)
      #else
        AssociationTable.shared.setValue(nil, for: object, key: address)
      #endif
    }
  }

  /// Records that `address` is set on `object`, creating the object's registry on first use.
  /// Addresses are never taken out of a registry, so a value set while ``removeAll(from:)`` runs
  /// is either removed by it or found by the next one.
  private static func register(_ address: UInt, on object: AnyObject) {
    if let registry = box(KeyRegistry.self, on: object, key: registryAddress) {
      registry.insert(address)
      return
    }
    var registry: KeyRegistry?
    #if canImport(ObjectiveC)
      // Nothing is replaced here, so nothing is released under the lock.
      associationUpdateLock.withLock { _ in
        let existing = objc_getAssociatedObject(object, pointer(registryAddress)) as? KeyRegistry
        registry = existing ?? KeyRegistry()
        if existing == nil {
          objc_setAssociatedObject(object, pointer(registryAddress), registry, .OBJC_ASSOCIATION_RETAIN)
        }
      }
    #else
      AssociationTable.shared.update(for: object, key: registryAddress) { existing in
        let found = existing.map { unsafeDowncast($0, to: KeyRegistry.self) } ?? KeyRegistry()
        registry = found
        return found
      }
    #endif
    registry?.insert(address)
  }

  /// The key of each object's ``KeyRegistry``: allocated once, never freed, so no key reuses it.
  private static let registryAddress = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

  #if canImport(ObjectiveC)
    /// A key as the Objective-C runtime wants it.
    static func pointer(_ address: UInt) -> UnsafeRawPointer {
      UnsafeRawPointer(bitPattern: address)!
    }
  #endif
}

#if canImport(ObjectiveC)
  /// Serialises ``AssociationStorage/updateBox(on:key:_:)`` and the creation of registries on
  /// Apple platforms, where the Objective-C runtime has no compare-and-set for associations.
  let associationUpdateLock = Mutex(())
#endif

/// The keys ever set on one object, for ``AssociationStorage/removeAll(from:)``.
final class KeyRegistry: Sendable {
  /// The key addresses, under a lock of their own (the platform lock, which ThreadSanitizer sees).
  private let storage = Locked<Set<UInt>>([])

  /// Adds `address` (no effect if it is there).
  func insert(_ address: UInt) {
    storage.withLock { (addresses: inout Set<UInt>) -> Void in addresses.insert(address) }
  }

  /// A copy of the addresses.
  var addresses: Set<UInt> {
    storage.withLock { $0 }
  }
}
