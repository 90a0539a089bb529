public import ClosureKit
public import Foundation
import Synchronization

/// A cache with `NSCache`'s API that calls a closure when it evicts an object.
///
/// `NSCache` holds its delegate weakly (unretained on Apple platforms), so a closure adapter set as
/// the delegate of a plain cache would be deallocated at once, or would outlive the cache.
/// `ClosureCache` owns an `NSCache` and the delegate that forwards its evictions: the closure lives
/// exactly as long as the cache.
///
/// ```swift
/// let thumbnails = ClosureCache<NSString, Thumbnail>()
/// thumbnails.countLimit = 100
/// thumbnails.willEvictObject.delegate(on: self) { owner, thumbnail in owner.forget(thumbnail) }
/// ```
///
/// A ``delegate`` you set is called too, after the closure, as BlocksKit forwarded to both: setting
/// it does not silence ``willEvictObject``.
///
/// What fires when, measured on Linux (swift-corelibs-foundation, Swift 6.3):
/// - the closure runs when an insertion takes the cache over `countLimit` or `totalCostLimit`;
///   the entry evicted is the one with the lowest cost, and among equal costs the *newest*, so with
///   the default cost 0 the object just inserted is the one evicted;
/// - it does **not** run for `removeObject(forKey:)`, `removeAllObjects()`, or when `setObject`
///   replaces the object of an existing key; nor when a limit is lowered (the next insertion evicts).
///
/// Apple documents `cache(_:willEvictObject:)` as called also when an object is removed; this
/// package was built and measured on Linux only.
///
/// It is a wrapper, not an `NSCache` subclass: on Apple platforms `NSCache` is an Objective-C
/// generic class, which a generic Swift class cannot subclass.
///
/// Threading: like `NSCache`, safe to use from any thread. The closure and the delegate run
/// synchronously on the thread that inserts, inside NSCache's own lock on Linux: they must not call
/// back into the same cache.
public final class ClosureCache<KeyType: AnyObject, ObjectType: AnyObject>: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is an `NSCache`, documented thread-safe ("you can add, remove,
  // and query items in the cache from different threads without having to lock the cache
  // yourself"); `willEvictObject` is a `Delegate` (Sendable); `forwarder` is immutable apart from
  // its delegate, which a `Mutex` guards.

  /// The closure that receives each object the cache is about to evict; unset by default.
  ///
  /// ```swift
  /// cache.willEvictObject.delegate { object in print("evicting", object) }
  /// ```
  public let willEvictObject = Delegate<ObjectType, Void>()

  /// The cache that holds the objects. Never exposed: a caller who set its delegate would replace
  /// the forwarder.
  private let storage = NSCache<KeyType, ObjectType>()

  /// The storage's delegate, owned here (NSCache does not retain its delegate). Not generic, so
  /// that it can be an Objective-C delegate on Apple platforms.
  private let forwarder: EvictionForwarder

  /// Creates an empty cache with no eviction closure.
  ///
  /// ```swift
  /// let cache = ClosureCache<NSString, NSData>()
  /// ```
  public init() {
    let slot = willEvictObject
    forwarder = EvictionForwarder { object in
      if let object = object as? ObjectType { slot(object) }
    }
    storage.delegate = forwarder
  }

  deinit {
    // The storage may outlive this object for a moment; it must never call a freed delegate.
    storage.delegate = nil
  }

  /// An `NSCacheDelegate` of your own, called after ``willEvictObject`` for each eviction; held
  /// weakly, `nil` by default.
  ///
  /// ```swift
  /// final class EvictionLog: NSObject, NSCacheDelegate {
  ///   func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) { print("evicted") }
  /// }
  /// let log = EvictionLog()
  /// cache.delegate = log  // called after `willEvictObject`'s closure, which still runs
  /// ```
  public var delegate: (any NSCacheDelegate)? {
    get { forwarder.delegate }
    set { forwarder.delegate = newValue }
  }

  /// The cache's name, for debugging.
  public var name: String {
    get { storage.name }
    set { storage.name = newValue }
  }

  /// The most objects the cache should hold; `0`, the default, means no limit. Imprecise, as
  /// `NSCache`'s.
  public var countLimit: Int {
    get { storage.countLimit }
    set { storage.countLimit = newValue }
  }

  /// The most total cost the cache should hold; `0`, the default, means no limit.
  public var totalCostLimit: Int {
    get { storage.totalCostLimit }
    set { storage.totalCostLimit = newValue }
  }

  /// Whether the cache evicts objects whose content was discarded (`NSDiscardableContent`).
  public var evictsObjectsWithDiscardedContent: Bool {
    get { storage.evictsObjectsWithDiscardedContent }
    set { storage.evictsObjectsWithDiscardedContent = newValue }
  }

  /// The object stored for `key`, or `nil`.
  ///
  /// ```swift
  /// let image = cache.object(forKey: "icon")
  /// ```
  public func object(forKey key: KeyType) -> ObjectType? {
    storage.object(forKey: key)
  }

  /// Stores `object` for `key` with a cost of 0; may evict other objects.
  public func setObject(_ object: ObjectType, forKey key: KeyType) {
    storage.setObject(object, forKey: key)
  }

  /// Stores `object` for `key` with `cost`; may evict other objects.
  ///
  /// ```swift
  /// cache.setObject(Thumbnail(), forKey: "icon", cost: 4_096)
  /// ```
  public func setObject(_ object: ObjectType, forKey key: KeyType, cost: Int) {
    storage.setObject(object, forKey: key, cost: cost)
  }

  /// Removes the object stored for `key`, if any.
  public func removeObject(forKey key: KeyType) {
    storage.removeObject(forKey: key)
  }

  /// Removes every object.
  public func removeAllObjects() {
    storage.removeAllObjects()
  }
}

/// Forwards `cache(_:willEvictObject:)` to a closure, then to the caller's delegate.
private final class EvictionForwarder: NSObject, NSCacheDelegate, Sendable {
  let forward: @Sendable (Any) -> Void
  /// The caller's delegate, held weakly: it reads `nil` once released, never a dangling reference.
  private let callerDelegate = Mutex(WeakCacheDelegate())

  init(_ forward: @escaping @Sendable (Any) -> Void) {
    self.forward = forward
  }

  var delegate: (any NSCacheDelegate)? {
    get { callerDelegate.withLock { $0.value } }
    set { callerDelegate.withLock { $0.value = newValue } }
  }

  func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
    forward(obj)
    guard let delegate else { return }
    // Apple's (Objective-C) `cache(_:willEvictObject:)` is an optional requirement; corelibs' is
    // a Swift requirement with a default implementation.
    #if canImport(ObjectiveC)
      delegate.cache?(cache, willEvictObject: obj)
    #else
      delegate.cache(cache, willEvictObject: obj)
    #endif
  }
}

/// A weak reference to a cache delegate.
private struct WeakCacheDelegate: @unchecked Sendable {
  // `@unchecked Sendable`: only read and written under the forwarder's `Mutex`; the delegate it
  // names is called on the inserting thread, as NSCache calls its own delegate.
  weak var value: (any NSCacheDelegate)?
}
