import ClosureKit
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
}
