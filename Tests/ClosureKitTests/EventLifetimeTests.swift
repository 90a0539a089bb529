import ClosureKit
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
    weak var weakCaptured: Tracked?
    let subscription: Subscription
    do {
      let captured = Tracked()
      weakCaptured = captured
      subscription = event.addHandler { _ in
        _ = captured
        count.increment()
      }
    }
    event.send(1)
    #expect(weakCaptured != nil)
    subscription.cancel()
    #expect(weakCaptured == nil)
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
    weak var weakCaptured: Tracked?
    var owner: Tracked? = Tracked("owner")
    let subscription: Subscription
    do {
      let captured = Tracked()
      weakCaptured = captured
      subscription = event.addHandler(owner: owner!) { _, _ in
        _ = captured
        count.increment()
      }
    }
    event.send(1)
    owner = nil
    #expect(subscription.isCancelled)
    event.send(2)
    #expect(count.value == 1)
    #expect(weakCaptured == nil)
    #expect(event.handlerCount == 0)
  }

  /// With an owner or without, the next registration releases it: a registration skips the sweep
  /// only when the one owner-bound handler is the one it adds, whose owner its caller holds.
  @Test(arguments: [false, true])
  func ownerDeallocationReleasesCapturesByTheNextRegistration(nextIsOwnerBound: Bool) {
    let event = Event<Int>()
    weak var weakCaptured: Tracked?
    var owner: Tracked? = Tracked("owner")
    do {
      let captured = Tracked()
      weakCaptured = captured
      event.addHandler(owner: owner!) { _, _ in _ = captured }
    }
    owner = nil
    #expect(weakCaptured != nil)
    let next = Tracked("next owner")
    if nextIsOwnerBound {
      event.addHandler(owner: next) { _, _ in }
    } else {
      event.addHandler { _ in }
    }
    #expect(weakCaptured == nil)
    #expect(event.handlerCount == 1)
  }

  @Test func cancellingAnOwnerBoundHandlerReleasesItsCapturesAtOnce() {
    let event = Event<Int>()
    let owner = Tracked("owner")
    weak var weakCaptured: Tracked?
    let subscription: Subscription
    do {
      let captured = Tracked()
      weakCaptured = captured
      subscription = event.addHandler(owner: owner) { _, _ in _ = captured }
    }
    subscription.cancel()
    #expect(weakCaptured == nil)
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
    weak var weakCaptured: Tracked?
    let subscription: Subscription
    do {
      let captured = Tracked()
      weakCaptured = captured
      subscription = event.once { value in
        _ = captured
        values.append(value)
      }
    }
    #expect(!subscription.isCancelled)
    event.send(1)
    #expect(weakCaptured == nil)
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
    let bag = SubscriptionBag()
    let count = Counter()
    weak var weakCaptured: Tracked?
    do {
      let captured = Tracked()
      weakCaptured = captured
      event.addHandler { _ in
        _ = captured
        count.increment()
      }.store(in: bag)
      event.addHandler { _ in count.increment() }.store(in: bag)
    }
    #expect(bag.count == 2)
    event.send(1)
    bag.cancelAll()
    #expect(weakCaptured == nil)
    event.send(2)
    #expect(count.value == 2)
    #expect(bag.count == 0)
  }

  @Test func bagDeinitEndsItsHandlers() {
    let event = Event<Int>()
    let count = Counter()
    weak var weakCaptured: Tracked?
    do {
      let bag = SubscriptionBag()
      let captured = Tracked()
      weakCaptured = captured
      bag.insert(
        event.addHandler { _ in
          _ = captured
          count.increment()
        })
      event.send(1)
    }
    #expect(weakCaptured == nil)
    event.send(2)
    #expect(count.value == 1)
  }

  @Test func eventDeinitReleasesEveryHandlerEvenWithTokensKept() {
    weak var weakCaptured: Tracked?
    weak var weakEvent: Event<Int>?
    let subscription: Subscription
    do {
      let event = Event<Int>()
      weakEvent = event
      let captured = Tracked()
      weakCaptured = captured
      subscription = event.addHandler { _ in _ = captured }
    }
    #expect(weakEvent == nil)
    #expect(weakCaptured == nil)
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
    var subscription: Subscription?
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
    let set: Set<Subscription> = [first, second, first]
    #expect(set.count == 2)
    #expect(first == first)
    #expect(first != second)
  }
}
