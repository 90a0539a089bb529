import ClosureKit
import ClosureKitTesting
import Dispatch
import Synchronization

/// One of the soak's threads: a seeded random mix of registrations (plain, `owner:`, in a bag,
/// `once`, on a queue), cancellations, sends, owners dying and bags ending, on events every worker
/// shares. After each step it checks its own handlers against a model that needs no lock: with
/// `.immediate` delivery its own sends run its handlers on its own thread before `send` returns.
final class SoakWorker: @unchecked Sendable {
  // `@unchecked Sendable`: one thread runs a worker (its own block on a global queue, `run` then
  // `finish`); the thread that made it touches it again only after waiting for that block.
  /// A handler this worker registered and has not ended.
  private struct Live {
    let record: HandlerRecord
    let subscription: HandlerSubscription
    /// Own sends to its event while it was live: its `ownCalls` must equal this.
    var expected: Int
    /// Checked only for the lifetime rule (a `.queue` handler runs later; a `once` handler may be
    /// taken by another worker's send).
    let isExact: Bool
    /// Registered with `once`: at most one call, whoever sends.
    var isOnce = false
    let owner: Int?
    let bag: Int?
  }

  let index: Int
  private var random: SeededGenerator
  private let events: [Event<Payload>]
  private let counters: SoakCounters
  private let queue: DispatchQueue
  private var live: [Live] = []
  private var ended: [HandlerRecord] = []
  private var owners: [SoakOwner?] = [SoakOwner(), SoakOwner(), SoakOwner()]
  private var bags: [SubscriptionBag] = [SubscriptionBag(), SubscriptionBag()]
  private var sequence = 0
  private let extras: SoakExtras

  init(index: Int, seed: UInt64, events: [Event<Payload>], counters: SoakCounters, extras: SoakExtras) {
    self.index = index
    self.random = SeededGenerator(seed: seed)
    self.events = events
    self.counters = counters
    self.queue = DispatchQueue(label: "soak.worker.\(index)")
    self.extras = extras
  }

  /// Runs steps until `deadline` or the first violation.
  func run(until deadline: ContinuousClock.Instant) {
    while ContinuousClock.now < deadline, counters.failure == nil {
      step()
      counters.steps.wrappingAdd(1, ordering: .relaxed)
    }
  }

  private func step() {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<18: register(owner: nil, bag: nil)
    case 18..<26: register(owner: Int.random(in: 0..<owners.count, using: &random), bag: nil)
    case 26..<34: register(owner: nil, bag: Int.random(in: 0..<bags.count, using: &random))
    case 34..<38: registerOnce()
    case 38..<42: registerOnQueue()
    case 42..<56: cancelOne()
    case 56..<80: send()
    case 80..<83: killOwner()
    case 83..<86: endBag()
    default: extras.step(worker: index, using: &random)
    }
  }

  private func register(owner ownerIndex: Int?, bag bagIndex: Int?) {
    let source = Int.random(in: 0..<events.count, using: &random)
    let kind = ownerIndex != nil ? "owner-bound" : bagIndex != nil ? "bagged" : "plain"
    let record = HandlerRecord(worker: index, source: source, kind: kind, counters: counters)
    let capture = Capture(counters)
    let subscription: HandlerSubscription
    if let ownerIndex {
      if owners[ownerIndex] == nil { owners[ownerIndex] = SoakOwner() }
      let owner = owners[ownerIndex]!
      owner.bind(record)
      subscription = events[source].addHandler(owner: owner) { _, payload in
        withExtendedLifetime(capture) { record.called(with: payload) }
      }
    } else {
      subscription = events[source].addHandler { payload in
        withExtendedLifetime(capture) { record.called(with: payload) }
      }
    }
    if let bagIndex { subscription.store(in: bags[bagIndex]) }
    live.append(
      Live(record: record, subscription: subscription, expected: 0, isExact: true, owner: ownerIndex, bag: bagIndex))
  }

  private func registerOnce() {
    let source = Int.random(in: 0..<events.count, using: &random)
    let record = HandlerRecord(worker: index, source: source, kind: "once", counters: counters)
    let capture = Capture(counters)
    let subscription = events[source].once { payload in
      withExtendedLifetime(capture) { record.called(with: payload) }
    }
    var entry = Live(record: record, subscription: subscription, expected: 0, isExact: false, owner: nil, bag: nil)
    entry.isOnce = true
    live.append(entry)
  }

  private func registerOnQueue() {
    let source = Int.random(in: 0..<events.count, using: &random)
    let record = HandlerRecord(worker: index, source: source, kind: "queue", counters: counters)
    let capture = Capture(counters)
    let subscription = events[source].addHandler(on: .queue(queue)) { payload in
      withExtendedLifetime(capture) { record.called(with: payload) }
    }
    live.append(Live(record: record, subscription: subscription, expected: 0, isExact: false, owner: nil, bag: nil))
  }

  private func cancelOne() {
    guard !live.isEmpty else { return }
    let entry = live.remove(at: Int.random(in: 0..<live.count, using: &random))
    entry.subscription.cancel()
    entry.record.end()
    ended.append(entry.record)
  }

  private func send() {
    let source = Int.random(in: 0..<events.count, using: &random)
    sequence += 1
    let ticket = counters.sendClock.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    events[source].send(Payload(worker: index, sequence: sequence, ticket: ticket))
    for position in live.indices where live[position].record.source == source {
      live[position].expected += 1
      let entry = live[position]
      if entry.isExact, entry.record.ownCalls.load(ordering: .relaxed) != entry.expected {
        counters.fail(
          "worker \(index): a live handler ran \(entry.record.ownCalls.load(ordering: .relaxed)) times for "
            + "\(entry.expected) sends of its worker (owner \(entry.owner.map(String.init) ?? "none"), "
            + "bag \(entry.bag.map(String.init) ?? "none"))")
      }
    }
    check()
  }

  private func killOwner() {
    let ownerIndex = Int.random(in: 0..<owners.count, using: &random)
    guard owners[ownerIndex] != nil else { return }
    owners[ownerIndex] = nil  // its deinit ends the records bound to it
    let (dead, alive) = split(live) { $0.owner == ownerIndex }
    live = alive
    ended += dead.map(\.record)
  }

  private func endBag() {
    let bagIndex = Int.random(in: 0..<bags.count, using: &random)
    let (inBag, others) = split(live) { $0.bag == bagIndex }
    if Bool.random(using: &random) {
      bags[bagIndex].cancelAll()
    } else {
      // No local holds the old bag: the assignment releases it, and its deinit cancels its tokens
      // before the next statement.
      bags[bagIndex] = SubscriptionBag()
    }
    inBag.forEach { $0.record.end("bag ended") }
    live = others
    ended += inBag.map(\.record)
  }

  private func split(_ entries: [Live], where isIn: (Live) -> Bool) -> ([Live], [Live]) {
    (entries.filter(isIn), entries.filter { !isIn($0) })
  }

  /// The lifetime rule for every handler this worker ended, and `once` at most once.
  private func check() {
    for record in ended where record.startedAfterEnd.load(ordering: .relaxed) {
      counters.fail("worker \(index): \(record.summary) started after it ended")
    }
    for entry in live where entry.isOnce && entry.record.allCalls.load(ordering: .relaxed) > 1 {
      counters.fail("worker \(index): a once handler ran \(entry.record.allCalls.load(ordering: .relaxed)) times")
    }
    // Ended records stay checked for a while (a late start shows up after a delay), then go.
    if ended.count > 512 { ended.removeFirst(256) }
  }

  /// Cancels everything this worker still holds, then checks the lifetime rule once more.
  func finish() {
    for entry in live {
      entry.subscription.cancel()
      entry.record.end()
      ended.append(entry.record)
    }
    live.removeAll()
    bags.forEach { $0.cancelAll() }
    owners = owners.map { _ in nil }
    queue.sync {}  // queued deliveries that had started have finished
    check()
  }
}
