import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

@Suite struct DelegateTests {
  @Test func unsetSlotAnswersNilAndIsNotSet() {
    let slot = Delegate<Int, String>()
    #expect(!slot.isSet)
    #expect(slot(1) == nil)
  }

  @Test func setSlotCallsTheClosureAndIsSet() {
    let slot = Delegate<Int, String>()
    slot.delegate { "got \($0)" }
    #expect(slot.isSet)
    #expect(slot(7) == "got 7")
  }

  @Test func settingAgainReplacesTheClosure() {
    let slot = Delegate<Int, Int>()
    slot.delegate { $0 + 1 }
    slot.delegate { $0 * 10 }
    #expect(slot(2) == 20)
  }

  @Test func ownerIsPassedBackStrong() {
    let slot = Delegate<Int, String>()
    let owner = Tracked("owner")
    slot.delegate(on: owner) { owner, input in "\(owner.name) \(input)" }
    #expect(slot(3) == "owner 3")
  }

  @Test func slotAnswersNilAndIsNotSetOnceTheOwnerIsGone() {
    let slot = Delegate<Int, Int>()
    var owner: Tracked? = Tracked()
    slot.delegate(on: owner!) { _, input in input }
    #expect(slot.isSet)
    owner = nil
    #expect(!slot.isSet)
    #expect(slot(1) == nil)
  }

  @Test func ownerIsHeldWeakly() {
    let slot = Delegate<Void, Void>()
    var owner: Tracked? = Tracked()
    weak let weakOwner = owner
    slot.delegate(on: owner!) { _, _ in }
    owner = nil
    #expect(weakOwner == nil)
  }

  @Test func clearReleasesTheCapturedValues() {
    let slot = Delegate<Void, Int>()
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    slot.delegate { [captured] in captured!.name.count }
    captured = nil
    #expect(weakCaptured != nil)
    slot.clear()
    #expect(weakCaptured == nil)
    #expect(!slot.isSet)
    #expect(slot(()) == nil)
  }

  @Test func closureWhoseOwnerDiedIsReleasedAtTheNextCall() {
    let slot = Delegate<Void, Int>()
    var owner: Tracked? = Tracked()
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    slot.delegate(on: owner!) { [captured] _, _ in captured!.name.count }
    captured = nil
    owner = nil
    #expect(slot(()) == nil)
    #expect(weakCaptured == nil)
  }

  @Test func voidSlotIsCalledWithoutArguments() {
    let slot = Delegate<Void, Int>()
    #expect(slot() == nil)
    let calls = Counter()
    slot.delegate {
      calls.increment()
      return 42
    }
    #expect(slot() == 42)
    #expect(slot(()) == 42)
    #expect(calls.value == 2)
  }

  @Test func voidSlotCalledWithoutArgumentsAnswersNilOnceTheOwnerIsGone() {
    let slot = Delegate<Void, String>()
    var owner: Tracked? = Tracked("owner")
    slot.delegate(on: owner!) { owner, _ in owner.name }
    #expect(slot() == "owner")
    owner = nil
    #expect(slot() == nil)
    #expect(!slot.isSet)
  }

  @Test func optionalOutputIsDistinguishedFromUnset() {
    let slot = Delegate<Int, Int?>()
    slot.delegate { _ in nil }
    #expect(slot(1) == .some(nil))
  }

  @Test func closureMayClearItsOwnSlotWithoutDeadlock() {
    let slot = Delegate<Void, Int>()
    slot.delegate {
      slot.clear()
      return 1
    }
    #expect(slot(()) == 1)
    #expect(!slot.isSet)
  }

  @Test func concurrentCallsSetsAndClearsAreSafe() {
    let slot = Delegate<Int, Int>()
    let calls = Counter()
    DispatchQueue.concurrentPerform(iterations: 2_000) { index in
      switch index % 4 {
      case 0:
        slot.delegate {
          calls.increment(); return $0
        }
      case 1: slot.clear()
      default: _ = slot(index)
      }
    }
    #expect(calls.value <= 1_000)
  }

  @Test func aReplacedClosureIsReleasedOutsideTheLockSoItsCapturesMayUseTheSlot() async {
    let slot = Delegate<Int, Int>()
    let owner = Tracked()
    let released = Expectation(count: 2)
    onOwnThread {  // not a pool thread: a deadlock here would hold it for good
      do {
        let first = CallsOnDeinit {
          _ = slot.isSet; released.fulfill()
        }
        slot.delegate { [first] in
          _ = first; return $0
        }
      }
      do {
        let second = CallsOnDeinit {
          slot.clear(); released.fulfill()
        }
        slot.delegate(on: owner) { [second] _, input in
          _ = second; return input
        }  // releases the first closure
      }
      slot.delegate { $0 }  // releases the second
    }
    #expect(await released.wait(timeout: crossThreadDeadline))
  }

  @Test(.heavy) func anOwnerDroppedWhileADeadClosureIsClearedIsNotReleasedUnderTheLock() async {
    let slot = Delegate<Int, Int>()
    let iterations = stressRounds(200_000)
    let setter = Expectation()
    let reader = Expectation()
    let stop = Slot<Bool>()
    onOwnThread {
      for _ in 0..<iterations {
        let owner = CallsOnDeinit { _ = slot.isSet }
        slot.delegate(on: owner) { _, input in input }
      }  // each owner goes right after being set, while the reader may be clearing its predecessor
      stop.value = true
      setter.fulfill()
    }
    onOwnThread {
      while stop.value != true { _ = slot(0) }
      reader.fulfill()
    }
    #expect(await setter.wait(timeout: crossThreadDeadline))
    #expect(await reader.wait(timeout: crossThreadDeadline))
  }
}
