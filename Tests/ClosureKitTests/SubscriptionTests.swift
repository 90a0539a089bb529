import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

@Suite struct SubscriptionTests {
  @Test func cancelRunsTheClosureOnceAndIsIdempotent() {
    let count = Counter()
    let subscription = HandlerSubscription { count.increment() }
    #expect(!subscription.isCancelled)
    subscription.cancel()
    subscription.cancel()
    #expect(count.value == 1)
    #expect(subscription.isCancelled)
  }

  /// A bag ends each run of one event's tokens under one lock (`HandlerListCore.cancel(_:)` of a
  /// slice): every handler of the run ends, whatever state it was in, and nothing else does.
  @Test(arguments: ["deinit", "cancelAll"])
  func aBagEndsRunsOfOneEventsTokensAndOnlyThose(ending: String) {
    let first = Event<Int>()
    let second = Event<Int>()
    let count = Counter()
    let kept = first.addHandler { _ in count.increment() }
    weak var weakCaptured: Tracked?
    var bag: SubscriptionBag? = SubscriptionBag()
    do {
      let captured = Tracked()
      weakCaptured = captured
      for _ in 0..<4 { first.addHandler { _ in count.increment() }.store(in: bag!) }
      first.addHandler { _ in _ = captured }.store(in: bag!)
      // Already ended in three ways: cancelled, a one-shot that ran, and left to the bag.
      let cancelled = first.addHandler { _ in count.increment() }
      cancelled.store(in: bag!)
      cancelled.cancel()
      first.once { _ in }.store(in: bag!)
      for _ in 0..<3 { second.addHandler { _ in count.increment() }.store(in: bag!) }
      for _ in 0..<3 { first.addHandler { _ in count.increment() }.store(in: bag!) }
    }
    first.send(0)  // runs the one-shot
    #expect(first.handlerCount == 1 + 4 + 1 + 3)
    #expect(second.handlerCount == 3)
    if ending == "deinit" { bag = nil } else { bag!.cancelAll() }
    #expect(weakCaptured == nil)
    #expect(first.handlerCount == 1)
    #expect(second.handlerCount == 0)
    let before = count.value
    first.send(1)
    second.send(1)
    #expect(count.value == before + 1)
    #expect(!kept.isCancelled)
  }

  /// A bag releases its handlers' captures in the order their tokens were stored, as cancelling
  /// each token in turn would, also when it holds a token twice: an event removes a bag's run
  /// newest first under its lock, then releases the entries in the tokens' order.
  @Test(arguments: [false, true])
  func aBagReleasesCapturesInTheOrderItsTokensWereStored(holdingTheFirstTwice: Bool) {
    let event = Event<Int>()
    let released = Recorder<String>()
    var bag: SubscriptionBag? = SubscriptionBag()
    do {
      let first = event.addHandler { [capture = CallsOnDeinit { released.append("first") }] _ in _ = capture }
      first.store(in: bag!)
      event.addHandler { [capture = CallsOnDeinit { released.append("second") }] _ in _ = capture }.store(in: bag!)
      if holdingTheFirstTwice { first.store(in: bag!) }
      event.addHandler { [capture = CallsOnDeinit { released.append("third") }] _ in _ = capture }.store(in: bag!)
    }
    bag = nil
    #expect(released.values == ["first", "second", "third"])
    #expect(event.handlerCount == 0)
  }

  @Test func tokensThatEndedByThemselvesAreDroppedWhenTheBagDoubles() {
    let bag = SubscriptionBag()
    weak var ended: HandlerSubscription?
    do {
      let token = HandlerSubscription {}
      token.store(in: bag)
      token.cancel()
      ended = token
    }
    for _ in 0..<15 { HandlerSubscription {}.store(in: bag) }
    #expect(ended != nil)  // 16 tokens: no sweep yet
    HandlerSubscription {}.store(in: bag)
    #expect(ended == nil)
    #expect(bag.count == 16)
  }

  @Test func tokensSweptFromABagAreReleasedOutsideItsLock() async {
    let bag = SubscriptionBag()
    let inserted = Expectation()
    onOwnThread {  // not a pool thread: a deadlock here would hold it for good
      do {
        let observed = Observed(wrappedValue: CallsOnDeinit { _ = bag.count })
        observed.observe { _ in }.store(in: bag)
      }  // the ended token in the bag now holds the last reference to the stored value
      let event = Event<Int>()
      for _ in 0..<16 { event.addHandler { _ in }.store(in: bag) }  // the 17th insert sweeps
      inserted.fulfill()
    }
    #expect(await inserted.wait(timeout: crossThreadDeadline))
  }
}
