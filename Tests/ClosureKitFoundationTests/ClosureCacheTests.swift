import ClosureKit
import ClosureKitFoundation
import Foundation
import Testing

private final class Entry: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

@Suite struct ClosureCacheTests {
  @Test func countLimitEvictionCallsTheClosure() {
    let cache = ClosureCache<NSString, Entry>()
    cache.countLimit = 2
    let evicted = DelegateTestRecorder<String>()
    cache.willEvictObject.delegate { evicted.append($0.name) }
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
      let cache = ClosureCache<NSString, Entry>()
      cache.countLimit = 2
      let evicted = DelegateTestRecorder<String>()
      cache.willEvictObject.delegate { evicted.append($0.name) }
      for name in ["a", "b", "c"] { cache.setObject(Entry(name), forKey: name as NSString) }
      #expect(evicted.values == ["c"])
      #expect(cache.object(forKey: "a")?.name == "a")
    }

    @Test func removeObjectAndRemoveAllDoNotCallTheClosureOnLinux() {
      let cache = ClosureCache<NSString, Entry>()
      let evicted = DelegateTestRecorder<String>()
      cache.willEvictObject.delegate { evicted.append($0.name) }
      cache.setObject(Entry("a"), forKey: "a")
      cache.setObject(Entry("b"), forKey: "b")
      cache.setObject(Entry("b2"), forKey: "b")
      cache.removeObject(forKey: "a")
      cache.removeAllObjects()
      #expect(evicted.values.isEmpty)
    }
  #endif

  @Test func totalCostLimitEvictionCallsTheClosure() {
    let cache = ClosureCache<NSString, Entry>()
    cache.totalCostLimit = 10
    let evicted = DelegateTestRecorder<String>()
    cache.willEvictObject.delegate { evicted.append($0.name) }
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
    let evicted = DelegateTestRecorder<String>()
    var owner: DelegateTestObject? = DelegateTestObject()
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
    var captured: DelegateTestObject? = DelegateTestObject()
    weak let weakCaptured = captured
    cache!.willEvictObject.delegate { [captured] _ in _ = captured }
    captured = nil
    cache = nil
    #expect(weakCache == nil)
    #expect(weakCaptured == nil)
  }
}
