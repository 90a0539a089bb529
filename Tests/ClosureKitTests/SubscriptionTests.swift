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
    #expect(await inserted.wait(timeout: .seconds(10)))
  }
}
