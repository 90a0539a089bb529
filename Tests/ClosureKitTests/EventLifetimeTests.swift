import ClosureKit
import ClosureKitTestSupport
import Testing

/// The lifetime rule of DESIGN.md, one test per way a handler ends.
@Suite struct EventLifetimeTests {
  @Test func droppingTheTokenDoesNotEndTheHandler() {
    let event = Event<Int>()
    let count = Counter()
    event.addHandler { _ in count.increment() }
    event.send(1)
    event.send(2)
    #expect(count.value == 2)
    #expect(event.handlerCount == 1)
  }

  @Test func cancelEndsTheHandlerAndReleasesItsCapturesAtOnce() {
    let event = Event<Int>()
    let count = Counter()
    let witness = CaptureWitness()
    let subscription = event.addHandler(witness.capturing { _ in count.increment() })
    event.send(1)
    #expect(!witness.isReleased)
    subscription.cancel()
    #expect(witness.isReleased)
    #expect(subscription.isCancelled)
    event.send(2)
    #expect(count.value == 1)
    #expect(event.handlerCount == 0)
  }

  @Test func cancelIsIdempotent() {
    let event = Event<Int>()
    let first = event.addHandler { _ in }
    let second = event.addHandler { _ in }
    first.cancel()
    first.cancel()
    #expect(event.handlerCount == 1)
    #expect(!second.isCancelled)
  }

  @Test func ownerDeallocationEndsTheHandlerAndReleasesCapturesByTheNextSend() {
    let event = Event<Int>()
    let count = Counter()
    let witness = CaptureWitness()
    var owner: Tracked? = Tracked("owner")
    let subscription = event.addHandler(owner: owner!, witness.capturing { _, _ in count.increment() })
    event.send(1)
    owner = nil
    #expect(subscription.isCancelled)
    event.send(2)
    #expect(count.value == 1)
    #expect(witness.isReleased)
    #expect(event.handlerCount == 0)
  }

  /// With an owner or without, the next registration releases it: a registration skips the sweep
  /// only when the one owner-bound handler is the one it adds, whose owner its caller holds.
  @Test(arguments: [false, true])
  func ownerDeallocationReleasesCapturesByTheNextRegistration(nextIsOwnerBound: Bool) {
    let event = Event<Int>()
    let witness = CaptureWitness()
    var owner: Tracked? = Tracked("owner")
    event.addHandler(owner: owner!, witness.capturing { _, _ in })
    owner = nil
    #expect(!witness.isReleased)
    let next = Tracked("next owner")
    if nextIsOwnerBound {
      event.addHandler(owner: next) { _, _ in }
    } else {
      event.addHandler { _ in }
    }
    #expect(witness.isReleased)
    #expect(event.handlerCount == 1)
  }

  @Test func cancellingAnOwnerBoundHandlerReleasesItsCapturesAtOnce() {
    let event = Event<Int>()
    let owner = Tracked("owner")
    let witness = CaptureWitness()
    let subscription = event.addHandler(owner: owner, witness.capturing { _, _ in })
    subscription.cancel()
    #expect(witness.isReleased)
    #expect(event.handlerCount == 0)
  }

  @Test func manyOwnerBoundHandlersWithDeadOwnersAreAllReleased() {
    let event = Event<Int>()
    let count = Counter()
    var owners: [Tracked] = (0..<500).map { Tracked("owner \($0)") }
    for owner in owners {
      event.addHandler(owner: owner) { _, _ in count.increment() }
    }
    let survivor = owners[250]
    owners.removeAll()
    event.send(1)
    #expect(count.value == 1)
    #expect(event.handlerCount == 1)
    _ = survivor
  }

  @Test func ownerIsPassedBackToTheHandler() {
    let event = Event<Int>()
    let owner = Tracked("the owner")
    let names = Recorder<String>()
    event.addHandler(owner: owner) { owner, value in names.append("\(owner.name) \(value)") }
    event.send(7)
    #expect(names.values == ["the owner 7"])
  }

  @Test func onceRunsExactlyOnceThenReleasesItsCaptures() {
    let event = Event<Int>()
    let values = Recorder<Int>()
    let witness = CaptureWitness()
    let subscription = event.once(witness.capturing { value in values.append(value) })
    #expect(!subscription.isCancelled)
    event.send(1)
    #expect(witness.isReleased)
    #expect(subscription.isCancelled)
    event.send(2)
    #expect(values.values == [1])
    #expect(event.handlerCount == 0)
  }

  @Test func onceWithOwnerDoesNotRunAfterTheOwnerIsGone() {
    let event = Event<Int>()
    let count = Counter()
    var owner: Tracked? = Tracked()
    event.once(owner: owner!) { _, _ in count.increment() }
    owner = nil
    event.send(1)
    #expect(count.value == 0)
  }

  @Test func onceWithOwnerRunsOnceWhileTheOwnerLives() {
    let event = Event<Int>()
    let count = Counter()
    let owner = Tracked()
    event.once(owner: owner) { _, _ in count.increment() }
    event.send(1)
    event.send(2)
    #expect(count.value == 1)
  }

  @Test func bagCancelAllEndsItsHandlersAndReleasesCaptures() {
    let event = Event<Int>()
    let count = Counter()
    let bag = SubscriptionBag()
    let witness = CaptureWitness()
    event.addHandler(witness.capturing { _ in count.increment() }).store(in: bag)
    event.addHandler { _ in count.increment() }.store(in: bag)
    #expect(bag.count == 2)
    event.send(1)
    bag.cancelAll()
    #expect(witness.isReleased)
    event.send(2)
    #expect(count.value == 2)
    #expect(bag.count == 0)
  }

  @Test func bagDeinitEndsItsHandlers() {
    let event = Event<Int>()
    let count = Counter()
    let witness = CaptureWitness()
    do {
      let bag = SubscriptionBag()
      bag.insert(event.addHandler(witness.capturing { _ in count.increment() }))
      event.send(1)
    }
    #expect(witness.isReleased)
    event.send(2)
    #expect(count.value == 1)
  }

  @Test func eventDeinitReleasesEveryHandlerEvenWithTokensKept() {
    let witness = CaptureWitness()
    weak var weakEvent: Event<Int>?
    let subscription: HandlerSubscription
    do {
      let event = Event<Int>()
      weakEvent = event
      subscription = event.addHandler(witness.capturing { _ in })
    }
    #expect(weakEvent == nil)
    #expect(witness.isReleased)
    #expect(subscription.isCancelled)
    subscription.cancel()
  }

  @Test func aHandlerThatCapturesItsEventDoesNotKeepItAliveAfterCancel() {
    weak var weakEvent: Event<Int>?
    do {
      let event = Event<Int>()
      weakEvent = event
      let subscription = event.addHandler { _ in _ = event }
      subscription.cancel()
    }
    #expect(weakEvent == nil)
  }

  @Test func tokenDoesNotKeepTheEventAlive() {
    weak var weakEvent: Event<Int>?
    var subscription: HandlerSubscription?
    do {
      let event = Event<Int>()
      weakEvent = event
      subscription = event.addHandler { _ in }
    }
    #expect(weakEvent == nil)
    #expect(subscription?.isCancelled == true)
    subscription = nil
  }

  @Test func subscriptionsAreHashableByIdentity() {
    let event = Event<Int>()
    let first = event.addHandler { _ in }
    let second = event.addHandler { _ in }
    let set: Set<HandlerSubscription> = [first, second, first]
    #expect(set.count == 2)
    #expect(first == first)
    #expect(first != second)
  }
}
