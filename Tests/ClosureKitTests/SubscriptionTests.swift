import ClosureKit
import ClosureKitTesting
import Dispatch
import Testing

@Suite struct SubscriptionTests {
  @Test func cancelRunsTheClosureOnceAndIsIdempotent() {
    let count = Counter()
    let subscription = Subscription { count.increment() }
    #expect(!subscription.isCancelled)
    subscription.cancel()
    subscription.cancel()
    #expect(count.value == 1)
    #expect(subscription.isCancelled)
  }

  @Test func tokensThatEndedByThemselvesAreDroppedWhenTheBagDoubles() {
    let bag = SubscriptionBag()
    weak var ended: Subscription?
    do {
      let token = Subscription {}
      token.store(in: bag)
      token.cancel()
      ended = token
    }
    for _ in 0..<15 { Subscription {}.store(in: bag) }
    #expect(ended != nil)  // 16 tokens: no sweep yet
    Subscription {}.store(in: bag)
    #expect(ended == nil)
    #expect(bag.count == 16)
  }

  @Test func tokensSweptFromABagAreReleasedOutsideItsLock() async {
    let bag = SubscriptionBag()
    let inserted = Expectation()
    DispatchQueue.global().async {
      do {
        let observed = Observed(wrappedValue: CallsOnDeinit { _ = bag.count })
        observed.observe { _ in }.store(in: bag)
      }  // the ended token in the bag now holds the last reference to the stored value
      let event = Event<Int>()
      for _ in 0..<16 { event.addHandler { _ in }.store(in: bag) }  // the 17th insert sweeps
      inserted.fulfill()
    }
    #expect(await inserted.wait(timeout: .seconds(60)))
  }
}
