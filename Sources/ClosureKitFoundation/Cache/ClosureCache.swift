public import ClosureKit
public import Foundation

/// An `NSCache` that calls a closure when it evicts an object.
///
/// `NSCache` holds its delegate weakly (on Linux too), so a closure adapter set as the delegate of
/// a plain cache would be deallocated at once, or would outlive the cache. `ClosureCache` is its
/// own delegate instead: the closure lives exactly as long as the cache.
///
/// ```swift
/// let thumbnails = ClosureCache<NSString, Thumbnail>()
/// thumbnails.countLimit = 100
/// thumbnails.willEvictObject.delegate(on: self) { owner, thumbnail in owner.forget(thumbnail) }
/// ```
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
/// > Important: The closure runs synchronously on the thread that inserts, inside NSCache's own
/// > lock on Linux: it must not call back into the same cache.
public final class ClosureCache<KeyType: AnyObject, ObjectType: AnyObject>: NSCache<KeyType, ObjectType> {
  /// The closure that receives each object the cache is about to evict; unset by default.
  ///
  /// ```swift
  /// cache.willEvictObject.delegate { object in print("evicting", object) }
  /// ```
  public let willEvictObject = Delegate<ObjectType, Void>()

  /// The cache's delegate, owned by the cache (NSCache holds its delegate weakly). Not generic,
  /// so that it can be an Objective-C delegate on Apple platforms.
  private let forwarder: EvictionForwarder

  /// Creates an empty cache with no eviction closure.
  ///
  /// ```swift
  /// let cache = ClosureCache<NSString, NSData>()
  /// ```
  public override init() {
    let slot = willEvictObject
    forwarder = EvictionForwarder { object in
      if let object = object as? ObjectType { slot(object) }
    }
    super.init()
    delegate = forwarder
  }
}

/// Forwards `cache(_:willEvictObject:)` to a closure.
private final class EvictionForwarder: NSObject, NSCacheDelegate {
  let forward: (Any) -> Void

  init(_ forward: @escaping (Any) -> Void) {
    self.forward = forward
  }

  func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
    forward(obj)
  }
}
