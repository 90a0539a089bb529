import ClosureKit
import ClosureKitTestSupport
import Dispatch
import Testing

/// Weak keys shared by the tests below.
enum WeakTestKeys {
  static let parent = WeakAssociatedKey<Tracked>()
  static let other = WeakAssociatedKey<Tracked>()
}

/// A value whose deinit reads and writes associated values: proves `removeAll(from:)` releases
/// values outside every lock.
final class UsesAssociationsInDeinit: Sendable {
  let target: Tracked
  let seen: Recorder<String?>
  init(target: Tracked, seen: Recorder<String?>) {
    self.target = target
    self.seen = seen
  }
  deinit {
    seen.append(TestKeys.name.value(for: target))
    TestKeys.number.setValue(7, for: target)
  }
}

/// `WeakAssociatedKey` and `AssociatedValues.removeAll(from:)` (issue 30, item 2).
@Suite struct WeakAssociatedKeyTests {
  @Test func aWeakValueIsReturnedWhileItLives() {
    let object = Tracked("object")
    let parent = Tracked("parent")
    WeakTestKeys.parent.setValue(parent, for: object)
    #expect(WeakTestKeys.parent.value(for: object) === parent)
    #expect(WeakTestKeys.other.value(for: object) == nil)
    #expect(WeakTestKeys.parent.value(for: parent) == nil)
  }

  @Test func aWeakValueIsNotRetainedAndReadsNilOnceReleased() {
    let object = Tracked("object")
    var parent: Tracked? = Tracked("parent")
    weak let weakParent = parent
    WeakTestKeys.parent.setValue(parent!, for: object)
    parent = nil
    #expect(weakParent == nil)
    #expect(WeakTestKeys.parent.value(for: object) == nil)
  }

  @Test func anObjectMayBeWeaklyAttachedToItselfWithoutACycle() async {
    weak var weakObject: Tracked?
    do {
      let object = Tracked()
      weakObject = object
      WeakTestKeys.parent.setValue(object, for: object)
      #expect(WeakTestKeys.parent.value(for: object) === object)
    }
    // Another test's sweep of the shared association table may hold it for a moment (a
    // ThreadSanitizer run saw it alive here once); a cycle would keep it for good.
    #expect(await eventually { weakObject == nil })
  }

  @Test func settingReplacesAndRemoveValueDetaches() {
    let object = Tracked()
    let first = Tracked("first")
    let second = Tracked("second")
    WeakTestKeys.parent.setValue(first, for: object)
    WeakTestKeys.parent.setValue(second, for: object)
    #expect(WeakTestKeys.parent.value(for: object) === second)
    WeakTestKeys.parent.removeValue(for: object)
    #expect(WeakTestKeys.parent.value(for: object) == nil)
    withExtendedLifetime((first, second)) {}
  }

  @Test func weakKeysAreDistinctFromEachOtherAndCopiesAreTheSameKey() {
    let copy = WeakTestKeys.parent
    #expect(copy == WeakTestKeys.parent)
    #expect(WeakAssociatedKey<Tracked>() != WeakAssociatedKey<Tracked>())
    let object = Tracked()
    let parent = Tracked()
    copy.setValue(parent, for: object)
    #expect(WeakTestKeys.parent.value(for: object) === parent)
    #expect(WeakTestKeys.other.value(for: object) == nil)
  }

  @Test func readsRacingTheValuesReleaseReturnTheLiveObjectOrNil() async {
    let object = Tracked("object")
    let rounds = 200
    let badReads = Counter()
    for round in 0..<rounds {
      let holder = Locked<Tracked?>(Tracked("parent \(round)"))
      holder.withLock { WeakTestKeys.parent.setValue($0!, for: object) }
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          DispatchQueue.concurrentPerform(iterations: 4) { index in
            if index == 0 {
              let dropped = holder.withLock { parent in
                defer { parent = nil }
                return parent
              }
              withExtendedLifetime(dropped) {}  // the last reference goes here, during the reads
            } else {
              for _ in 0..<50 {
                // A read returns a retained, live object (its name intact) or nil.
                if let read = WeakTestKeys.parent.value(for: object), read.name != "parent \(round)" {
                  badReads.increment()
                }
              }
            }
          }
          continuation.resume()
        }
      }
      #expect(WeakTestKeys.parent.value(for: object) == nil)
    }
    #expect(badReads.value == 0)
  }

  // MARK: removeAll(from:)

  @Test func removeAllDetachesAndReleasesEveryValueAtOnce() {
    let object = Tracked("object")
    let parent = Tracked("parent")
    weak var weakValue: Tracked?
    do {
      let value = Tracked("value")
      weakValue = value
      TestKeys.tracked.setValue(value, for: object)
    }
    TestKeys.name.setValue("name", for: object)
    TestKeys.number.setValue(1, for: object)
    WeakTestKeys.parent.setValue(parent, for: object)
    #expect(weakValue != nil)
    AssociatedValues.removeAll(from: object)
    #expect(weakValue == nil)
    #expect(TestKeys.name.value(for: object) == nil)
    #expect(TestKeys.number.value(for: object) == nil)
    #expect(TestKeys.tracked.value(for: object) == nil)
    #expect(WeakTestKeys.parent.value(for: object) == nil)
    #expect(parent.name == "parent")  // a weakly attached object is not released by it
  }

  @Test func removeAllLeavesOtherObjectsValuesAlone() {
    let object = Tracked()
    let other = Tracked()
    TestKeys.name.setValue("mine", for: object)
    TestKeys.name.setValue("theirs", for: other)
    AssociatedValues.removeAll(from: object)
    #expect(TestKeys.name.value(for: object) == nil)
    #expect(TestKeys.name.value(for: other) == "theirs")
  }

  @Test func removeAllOnAnObjectWithoutValuesDoesNothingAndValuesMayBeSetAgain() {
    let object = Tracked()
    AssociatedValues.removeAll(from: object)
    TestKeys.name.setValue("before", for: object)
    AssociatedValues.removeAll(from: object)
    AssociatedValues.removeAll(from: object)
    TestKeys.name.setValue("after", for: object)
    #expect(TestKeys.name.value(for: object) == "after")
  }

  @Test func removeAllRemovesADismissRequestHandler() {
    let object = DismissableThing()
    let calls = Counter()
    object.onDismissRequest { _ in calls.increment() }
    object.requestDismiss()
    AssociatedValues.removeAll(from: object)
    object.requestDismiss()
    #expect(calls.value == 1)
  }

  @Test func removeAllReleasesValuesOutsideTheLockSoTheirDeinitMayUseAssociations() {
    let object = Tracked("object")
    let seen = Recorder<String?>()
    TestKeys.name.setValue("kept by no one", for: object)
    TestKeys.tracked.setValue(Tracked(), for: object)
    AssociatedKeyTestsReentry.key.setValue(UsesAssociationsInDeinit(target: object, seen: seen), for: object)
    AssociatedValues.removeAll(from: object)
    // The deinit ran (during or after the name's removal) and its own write was stored.
    #expect(seen.values.count == 1)
    #expect(TestKeys.number.value(for: object) == 7)
  }

  @Test func removeAllFromManyThreadsWhileOthersSetValuesIsSafe() async {
    let object = Tracked()
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        DispatchQueue.concurrentPerform(iterations: 400) { index in
          switch index % 4 {
          case 0: AssociatedValues.removeAll(from: object)
          case 1: TestKeys.name.setValue("\(index)", for: object)
          case 2: WeakTestKeys.parent.setValue(object, for: object)
          default: _ = TestKeys.name.value(for: object)
          }
        }
        continuation.resume()
      }
    }
    AssociatedValues.removeAll(from: object)
    #expect(TestKeys.name.value(for: object) == nil)
    #expect(WeakTestKeys.parent.value(for: object) == nil)
  }
}

/// A key whose value uses associations in its deinit.
enum AssociatedKeyTestsReentry {
  static let key = AssociatedKey<UsesAssociationsInDeinit>()
}

/// An object that requests its own dismissal.
final class DismissableThing: DismissRequesting, Sendable {}
