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
/// ``removeAll(from:)`` removes ClosureKit's values and nothing else. On Apple platforms each
/// object that has a value also has a ``KeyRegistry``, stored under a key of its own, listing
/// every key ever set on it (`objc_removeAssociatedObjects` would also remove other libraries'
/// values). On Linux the table keeps an object's values together, so it needs no registry: each
/// call here is exactly one access to the table, which its release bound counts.
///
/// Every box stored under one address has one type, `Box`: an address belongs to one key, and a
/// key of one type stores one box type (``AssociatedBox`` of its `Value`, or ``WeakBox``). The
/// casts below are checked, and `assert` that invariant.
@usableFromInline
enum AssociationStorage {
  /// The box stored on `object` under `address`, or `nil`.
  @usableFromInline
  static func box<Box: AnyObject>(_ type: Box.Type, on object: AnyObject, key address: UInt) -> Box? {
    #if canImport(ObjectiveC)
      let stored = objc_getAssociatedObject(object, pointer(address))
    #else
      let stored = AssociationTable.shared.value(for: object, key: address)
    #endif
    return cast(stored, to: Box.self)
  }

  /// Stores `box` on `object` under `address` (`nil` removes it); the replaced box is released
  /// after every lock is released.
  @usableFromInline
  static func setBox(_ box: AnyObject?, on object: AnyObject, key address: UInt) {
    #if canImport(ObjectiveC)
      if box != nil { register(address, on: object) }
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
    #if canImport(ObjectiveC)
      register(address, on: object)
      let old: Box? = associationUpdateLock.withLock { _ in
        let old = cast(objc_getAssociatedObject(object, pointer(address)), to: Box.self)
        objc_setAssociatedObject(object, pointer(address), transform(old), .OBJC_ASSOCIATION_RETAIN)
        return old
      }
      withExtendedLifetime(old) {}
    #else
      AssociationTable.shared.update(for: object, key: address) { box in
        transform(cast(box, to: Box.self))
      }
    #endif
  }

  /// Removes every box stored through this type on `object`, releasing each after the locks.
  static func removeAll(from object: AnyObject) {
    #if canImport(ObjectiveC)
      guard let registry = box(KeyRegistry.self, on: object, key: registryAddress) else { return }
      for address in registry.addresses {
        objc_setAssociatedObject(object, pointer(address), nil, .OBJC_ASSOCIATION_RETAIN)
      }
    #else
      AssociationTable.shared.removeAll(from: object)
    #endif
  }

  /// `stored` as a `Box`, which it is whenever it is not `nil` (see the type's comment).
  private static func cast<Box: AnyObject>(_ stored: Stored?, to type: Box.Type) -> Box? {
    guard let stored else { return nil }
    let box = stored as? Box
    assert(box != nil, "an associated value of another type under this key")
    return box
  }

  #if canImport(ObjectiveC)
    /// What the store hands back: `objc_getAssociatedObject` returns `Any`.
    private typealias Stored = Any
  #else
    /// What the store hands back.
    private typealias Stored = AnyObject
  #endif

  #if canImport(ObjectiveC)
    /// Records that `address` is set on `object`, creating the object's registry on first use.
    /// Addresses are never taken out of a registry, so a value set while ``removeAll(from:)``
    /// runs is either removed by it or found by the next one.
    private static func register(_ address: UInt, on object: AnyObject) {
      if let registry = box(KeyRegistry.self, on: object, key: registryAddress) {
        registry.insert(address)
        return
      }
      // Nothing is replaced here, so nothing is released under the lock.
      let registry = associationUpdateLock.withLock { _ in
        if let existing = cast(objc_getAssociatedObject(object, pointer(registryAddress)), to: KeyRegistry.self) {
          return existing
        }
        let created = KeyRegistry()
        objc_setAssociatedObject(object, pointer(registryAddress), created, .OBJC_ASSOCIATION_RETAIN)
        return created
      }
      registry.insert(address)
    }

    /// The key of each object's ``KeyRegistry``: allocated once, never freed, so no key reuses it.
    private static let registryAddress = UInt(
      bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// A key as the Objective-C runtime wants it.
    static func pointer(_ address: UInt) -> UnsafeRawPointer {
      UnsafeRawPointer(bitPattern: address)!
    }
  #endif
}

#if canImport(ObjectiveC)
  /// Serialises ``AssociationStorage/updateBox(_:on:key:_:)`` and the creation of registries on
  /// Apple platforms, where the Objective-C runtime has no compare-and-set for associations.
  let associationUpdateLock = Mutex(())

  /// The keys ever set on one object, for ``AssociationStorage/removeAll(from:)`` on Apple
  /// platforms.
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
#endif
