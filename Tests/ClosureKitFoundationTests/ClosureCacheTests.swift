import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import Foundation
import Testing

private final class Entry: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// A cache configured by `configure` whose `willEvictObject` records the evicted entries' names.
private func recordingCache(
  _ configure: (ClosureCache<NSString, Entry>) -> Void
) -> (ClosureCache<NSString, Entry>, Recorder<String>) {
  let cache = ClosureCache<NSString, Entry>()
  configure(cache)
  let evicted = Recorder<String>()
  cache.willEvictObject.delegate { evicted.append($0.name) }
  return (cache, evicted)
}

@Suite struct ClosureCacheTests {
  @Test func countLimitEvictionCallsTheClosure() {
    let (cache, evicted) = recordingCache { $0.countLimit = 2 }
    cache.setObject(Entry("a"), forKey: "a", cost: 3)
    cache.setObject(Entry("b"), forKey: "b", cost: 2)
    cache.setObject(Entry("c"), forKey: "c", cost: 1)
    #expect(evicted.values.count == 1)
    #if !canImport(Darwin)
      // Linux evicts the cheapest entry first.
      #expect(evicted.values == ["c"])
      #expect(cache.object(forKey: "c") == nil)
    #endif
  }

  #if !canImport(Darwin)
    @Test func linuxEvictsTheNewestAmongEqualCosts() {
      let (cache, evicted) = recordingCache { $0.countLimit = 2 }
      for name in ["a", "b", "c"] { cache.setObject(Entry(name), forKey: name as NSString) }
      #expect(evicted.values == ["c"])
      #expect(cache.object(forKey: "a")?.name == "a")
    }

    @Test func removeObjectAndRemoveAllDoNotCallTheClosureOnLinux() {
      let (cache, evicted) = recordingCache { _ in }
      cache.setObject(Entry("a"), forKey: "a")
      cache.setObject(Entry("b"), forKey: "b")
      cache.setObject(Entry("b2"), forKey: "b")
      cache.removeObject(forKey: "a")
      cache.removeAllObjects()
      #expect(evicted.values.isEmpty)
    }
  #endif

  @Test func totalCostLimitEvictionCallsTheClosure() {
    let (cache, evicted) = recordingCache { $0.totalCostLimit = 10 }
    cache.setObject(Entry("x"), forKey: "x", cost: 6)
    cache.setObject(Entry("y"), forKey: "y", cost: 6)
    #expect(evicted.values.count == 1)
  }

  @Test func unsetClosureKeepsNSCacheBehaviour() {
    let cache = ClosureCache<NSString, Entry>()
    cache.countLimit = 1
    #expect(!cache.willEvictObject.isSet)
    cache.setObject(Entry("a"), forKey: "a", cost: 2)
    cache.setObject(Entry("b"), forKey: "b", cost: 1)
    #expect((cache.object(forKey: "a") == nil) != (cache.object(forKey: "b") == nil))
  }

  @Test func ownerBoundClosureStopsWhenTheOwnerDies() {
    let cache = ClosureCache<NSString, Entry>()
    cache.countLimit = 1
    let evicted = Recorder<String>()
    var owner: Tracked? = Tracked()
    cache.willEvictObject.delegate(on: owner!) { _, entry in evicted.append(entry.name) }
    cache.setObject(Entry("a"), forKey: "a", cost: 2)
    cache.setObject(Entry("b"), forKey: "b", cost: 1)
    owner = nil
    cache.setObject(Entry("c"), forKey: "c", cost: 1)
    #expect(evicted.values.count == 1)
    #expect(!cache.willEvictObject.isSet)
  }

  @Test func cacheAndItsClosureAreReleasedTogether() {
    var cache: ClosureCache<NSString, Entry>? = ClosureCache()
    weak let weakCache = cache
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    cache!.willEvictObject.delegate { [captured] _ in _ = captured }
    captured = nil
    cache = nil
    #expect(weakCache == nil)
    #expect(weakCaptured == nil)
  }

  @Test func aDelegateTheCallerSetsIsCalledAndTheClosureStillRuns() {
    let cache = ClosureCache<NSString, Entry>()
    cache.countLimit = 1
    let order = Recorder<String>()
    let callerDelegate = RecordingCacheDelegate(order)
    cache.willEvictObject.delegate { entry in order.append("closure " + entry.name) }
    cache.delegate = callerDelegate
    #expect(cache.delegate === callerDelegate)
    cache.setObject(Entry("a"), forKey: "a", cost: 2)
    cache.setObject(Entry("b"), forKey: "b", cost: 1)
    #expect(order.values.count == 2)
    #expect(order.values.first?.hasPrefix("closure ") == true)
    #expect(order.values.last?.hasPrefix("delegate ") == true)
    // Clearing it leaves the closure running.
    cache.delegate = nil
    cache.setObject(Entry("c"), forKey: "c", cost: 1)
    #expect(order.values.count == 3)
    #expect(order.values.last?.hasPrefix("closure ") == true)
  }

  @Test func theCallersDelegateIsHeldWeakly() {
    let cache = ClosureCache<NSString, Entry>()
    cache.countLimit = 1
    let order = Recorder<String>()
    var callerDelegate: RecordingCacheDelegate? = RecordingCacheDelegate(order)
    weak let weakDelegate = callerDelegate
    cache.delegate = callerDelegate
    callerDelegate = nil
    #expect(weakDelegate == nil)
    #expect(cache.delegate == nil)
    cache.setObject(Entry("a"), forKey: "a", cost: 2)
    cache.setObject(Entry("b"), forKey: "b", cost: 1)
    #expect(order.values.isEmpty)
  }

  @Test func theCacheAPIForwardsToNSCache() {
    let cache = ClosureCache<NSString, Entry>()
    cache.name = "thumbnails"
    cache.totalCostLimit = 7
    cache.evictsObjectsWithDiscardedContent = false
    #expect(cache.name == "thumbnails")
    #expect(cache.totalCostLimit == 7)
    #expect(!cache.evictsObjectsWithDiscardedContent)
    cache.setObject(Entry("a"), forKey: "a")
    #expect(cache.object(forKey: "a")?.name == "a")
    cache.removeObject(forKey: "a")
    #expect(cache.object(forKey: "a") == nil)
    cache.setObject(Entry("b"), forKey: "b", cost: 1)
    cache.removeAllObjects()
    #expect(cache.object(forKey: "b") == nil)
  }
}

/// A caller's own `NSCacheDelegate`, recording each eviction it is told of.
private final class RecordingCacheDelegate: NSObject, NSCacheDelegate, Sendable {
  let order: Recorder<String>
  init(_ order: Recorder<String>) { self.order = order }
  func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
    order.append("delegate " + ((obj as? Entry)?.name ?? "?"))
  }
}
