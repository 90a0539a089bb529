import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Synchronization
import Testing

@testable import ClosureKit

/// The randomized model test of an `Observed` box's delivery machine with every kind of observer
/// the registry keeps: immediate and `.queue`, with and without an owner, `once`, plain and
/// `modify` writes, a second box bound to the first by a handler, tag changes of the registry
/// (`updateTags`), from several threads, with both boxes' invariants
/// (`verifyObservedInvariants()`: the registry's, the delivery phase's, the single observer's box)
/// checked after every step.
///
/// The model: `modify` writes the next value of a counter inside its body (bodies are serialised,
/// so those values are the write order), plain writes write -1; every observer must see the
/// non-negative values increasing (queued writes may be merged, never reordered; a serial queue
/// keeps the order); a `once` observer is called at most once; at the end every observer has
/// ended and every capture is released.
@Suite struct ObservedRegistryModelTests {
  final class Owner: Sendable {}

  @Test(.heavy) func onceOwnersQueuesBindingsAndTagChangesFromManyThreadsKeepTheInvariants() async {
    let box = Observed(0)
    let mirror = Observed(0)
    let binding = box.observe { mirror.value = $0.newValue! }
    let queue = DispatchQueue(label: "ObservedRegistryModelTests")
    let counter = Shared(0)
    let liveCaptures = Shared(0)
    let violations = Recorder<String>()
    let rounds = modelRounds(1_000)
    let finished = await onOwnThreads(0..<4) { thread in
      var random = SeededGenerator(seed: UInt64(thread) &* 7_919 &+ 11)
      var tokens: [HandlerSubscription] = []
      var owners: [Owner] = []
      for _ in 0..<rounds {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<26:
          let target = Int.random(in: 0..<4, using: &random) == 0 ? mirror : box
          let once = Bool.random(using: &random)
          let delivery: Delivery = Bool.random(using: &random) ? .immediate : .queue(queue)
          let options: ObservationOptions =
            [[.new], [.old, .new], [.initial, .new], [.prior, .old, .new]].randomElement(using: &random)!
          let last = Shared(-1)
          let calls = Shared(0)
          liveCaptures.value.add(1, ordering: .relaxed)
          let capture = CallsOnDeinit { liveCaptures.value.subtract(1, ordering: .relaxed) }
          let body: @Sendable (Change<Int>) -> Void = { change in
            withExtendedLifetime(capture) {
              if once, calls.value.add(1, ordering: .relaxed).newValue > 1 {
                violations.append("a once observer called twice")
              }
              guard !change.isPrior, let new = change.newValue, new >= 0 else { return }
              let previous = last.value.exchange(new, ordering: .relaxed)
              if new <= previous {
                violations.append("values out of write order: \(previous) then \(new)")
              }
            }
          }
          let source = target.observing(options)
          if Bool.random(using: &random) {
            let owner = Owner()
            owners.append(owner)
            tokens.append(
              once
                ? source.once(owner: owner, on: delivery) { _, change in body(change) }
                : source.addHandler(owner: owner, on: delivery) { _, change in body(change) })
          } else {
            tokens.append(once ? source.once(on: delivery, body) : source.addHandler(on: delivery, body))
          }
        case 26..<40:
          guard !tokens.isEmpty else { continue }
          tokens.remove(at: Int.random(in: 0..<tokens.count, using: &random)).cancel()
        case 40..<46:
          if !owners.isEmpty { owners.remove(at: Int.random(in: 0..<owners.count, using: &random)) }
        case 46..<50:
          box.storage.updateTags { options in
            options.formSymmetricDifference(.old)
            return true
          }
        case 50..<58:
          box.value = -1
        default:
          box.modify { $0 = counter.value.add(1, ordering: .relaxed).newValue }
        }
        if !box.storage.verifyObservedInvariants() || !mirror.storage.verifyObservedInvariants() {
          violations.append("invariants")
        }
      }
      for token in tokens { token.cancel() }
      owners.removeAll()
    }
    #expect(finished)
    binding.cancel()
    queue.sync {}  // the queued deliveries have run or been dropped
    box.value = 0
    mirror.value = 0
    #expect(box.observerCount == 0)
    #expect(mirror.observerCount == 0)
    #expect(box.storage.verifyObservedInvariants())
    #expect(mirror.storage.verifyObservedInvariants())
    #expect(liveCaptures.value.load(ordering: .relaxed) == 0)
    #expect(violations.values.isEmpty, "\(Set(violations.values))")
  }
}

/// `once` and `owner:` of an `Observed` box are the registry's own: the nodes every host makes.
@Suite struct ObservedRegistryTests {
  final class Owner: Sendable {}

  @Test func aOnceObserverIsARegistryOneShotNode() {
    let box = Observed(0)
    let seen = Recorder<Int>()
    let token = box.observing().once { seen.append($0.newValue!) }
    #expect((token as? HandlerNode)?.isOnce == true)
    box.value = 1
    box.value = 2
    #expect(seen.values == [1])
    #expect(token.isCancelled)
    #expect(box.observerCount == 0)
  }

  @Test func anOwnedOnceObserverIsOneRegistryNodeBoundToItsOwner() {
    let box = Observed(0)
    let seen = Recorder<Int>()
    var owner: Owner? = Owner()
    let token = box.observing([.initial, .new]).once(owner: owner!) { _, change in seen.append(change.newValue!) }
    #expect(seen.values == [0])
    #expect((token as? ExtendedNode).map { $0.isOnce && $0.isOwnerBound } == true)
    box.value = 1
    #expect(seen.values == [0])
    let kept = box.observing().addHandler(owner: owner!) { _, change in seen.append(change.newValue!) }
    box.value = 2
    owner = nil
    box.value = 3
    #expect(seen.values == [0, 2])
    #expect(kept.isCancelled)
    #expect(box.observerCount == 0)
  }

  @Test func aTagChangeOfTheRegistryReachesTheSingleObserversNextWrite() {
    let box = Observed(0)
    let seen = Recorder<Int?>()
    let token = box.observe(options: [.new]) { seen.append($0.oldValue) }
    box.value = 1  // the write fast path's single box, with the options [.new]
    box.storage.updateTags { options in
      options = [.old, .new]
      return true
    }
    box.value = 2
    #expect(seen.values == [nil, 1])
    #expect(box.storage.verifyObservedInvariants())
    token.cancel()
  }
}
