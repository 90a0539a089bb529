import ClosureKitTestSupport
import ClosureKitTesting
import Synchronization
import Testing

@testable import ClosureKit

/// The randomized model test of an `Observed` box on the one registry: several threads at once
/// register observers (with and without an owner, with and without the initial callback), cancel
/// them, drop owners, and write, with the box's invariants (`verifyObservedInvariants()`: the
/// registry's and the delivery state machine's) checked after every operation.
///
/// The model: every write is `modify { $0 += 1 }`, so the values are the write order, and each
/// observer must see them increasing (queued writes may be merged into one change, never
/// reordered); and at the end every observer has ended and every capture is released.
@Suite struct ObservedModelTests {
  final class Owner: Sendable {}

  @Test(.heavy) func manyThreadsObservingCancellingWritingAndOwnersDyingKeepTheInvariants() async {
    let box = Observed(0)
    let liveCaptures = Shared(0)
    let violations = Recorder<String>()
    let threads = 4
    let rounds = modelRounds(1_200)
    let progress = StressProgress()
    let finished = await onOwnThreads(0..<threads, progress: progress) { thread in
      var random = SeededGenerator(seed: UInt64(thread) &* 104_729 &+ 3)
      var tokens: [HandlerSubscription] = []
      var owners: [Owner] = []
      for _ in 0..<rounds {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30:
          let last = Shared(-1)
          liveCaptures.value.add(1, ordering: .relaxed)
          let capture = CallsOnDeinit { liveCaptures.value.subtract(1, ordering: .relaxed) }
          let options: ObservationOptions =
            [[.new], [.old, .new], [.initial, .new], [.prior, .old, .new]].randomElement(using: &random)!
          let body: @Sendable (Change<Int>) -> Void = { change in
            withExtendedLifetime(capture) {
              guard !change.isPrior, let new = change.newValue else { return }
              let previous = last.value.exchange(new, ordering: .relaxed)
              if new <= previous {
                violations.append("values out of write order: \(previous) then \(new)")
              }
            }
          }
          let token: HandlerSubscription
          if Bool.random(using: &random) {
            let owner = Owner()
            owners.append(owner)
            token = box.observing(options).addHandler(owner: owner) { _, change in body(change) }
          } else {
            token = box.observe(options: options, body)
          }
          tokens.append(token)
        case 30..<50:
          guard !tokens.isEmpty else { continue }
          tokens.remove(at: Int.random(in: 0..<tokens.count, using: &random)).cancel()
        case 50..<58:
          if !owners.isEmpty { owners.remove(at: Int.random(in: 0..<owners.count, using: &random)) }
        default:
          box.modify { $0 += 1 }
        }
        if !box.storage.verifyObservedInvariants() { violations.append("invariants") }
        progress.advance()
      }
      for token in tokens { token.cancel() }
      owners.removeAll()
    }
    #expect(finished)
    box.modify { $0 += 1 }
    #expect(box.observerCount == 0)
    #expect(box.storage.verifyObservedInvariants())
    #expect(liveCaptures.value.load(ordering: .relaxed) == 0)
    #expect(violations.values.isEmpty, "\(Set(violations.values))")
  }
}

/// The write fast path's borrow (`ObservedBorrow.swift`): a write to one plain observer calls its
/// handler through a box it does not retain, so every change of the registry during that call must
/// keep the box until the writing thread leaves. Run under AddressSanitizer in CI, where a box
/// freed too early is a use after free.
@Suite struct ObservedBorrowTests {
  /// The handler cancels its own token during its call, then uses what it captured: the box is
  /// kept (parked) until the write returns, and the captures are released then.
  @Test func aHandlerThatCancelsItselfDuringItsCallKeepsItsCapturesUntilTheWriteReturns() {
    let box = Observed(0)
    let token = Slot<HandlerSubscription>()
    let seen = Recorder<String>()
    weak var weakCapture: Tracked?
    do {
      let capture = Tracked("capture")
      weakCapture = capture
      token.value = box.observe { change in
        token.value?.cancel()
        token.value = nil
        #expect(box.storage.verifyObservedInvariants())
        seen.append("\(capture.name) \(change.newValue!)")
      }
    }
    box.value = 1  // the first write makes the box
    #expect(seen.values == ["capture 1"])
    #expect(weakCapture == nil)
    #expect(box.observerCount == 0)
    box.value = 2
    #expect(seen.values == ["capture 1"])
    #expect(box.storage.verifyObservedInvariants())
  }

  /// The second write borrows the box the first made; its handler adds and cancels observers,
  /// each a change that drops the box while it is borrowed.
  @Test func changesOfTheObserversDuringABorrowedCallKeepTheBoxAndTheOrder() {
    let box = Observed(0)
    let seen = Recorder<String>()
    let added = Slot<[HandlerSubscription]>()
    let first = box.observe { change in
      seen.append("first \(change.newValue!)")
      guard change.newValue == 2 else { return }
      let extra = box.observe { seen.append("extra \($0.newValue!)") }
      let gone = box.observe { seen.append("gone \($0.newValue!)") }
      gone.cancel()
      added.value = [extra]
      box.value = 3  // a handler's write, delivered depth-first to the observers before it
      seen.append("after 3")
    }
    box.value = 1
    box.value = 2
    box.value = 4
    #expect(seen.values == ["first 1", "first 2", "first 3", "extra 3", "after 3", "first 4", "extra 4"])
    #expect(box.storage.verifyObservedInvariants())
    first.cancel()
    for token in added.value ?? [] { token.cancel() }
    #expect(box.observerCount == 0)
  }
}
