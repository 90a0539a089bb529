/// The state of one subscription of a source's publisher: the subscriber's outstanding demand, the
/// values it has not asked for yet, and who is delivering.
///
/// A pure value: every transition returns what its caller must do after the lock. Combine asks that
/// a subscriber is never called concurrently; the state keeps one deliverer at a time
/// (`isDelivering`): a value sent on another thread while someone delivers is buffered, and the
/// deliverer takes it before it stops.
package struct PublisherDemandState<Element, Sink> {
  /// Where the subscription is in its life.
  package enum Phase: Equatable {
    /// Registered on its source; values arrive.
    case active
    /// The source ended: the buffered values are delivered as demand allows, then the completion.
    case finishing
    /// Completed or cancelled: nothing more is delivered, the sink is released.
    case terminal
  }

  /// What the deliverer does next.
  package enum Step {
    /// Hand this value to this sink, then report the demand the sink returned.
    case deliver(Element, Sink)
    /// Send the completion to this sink; the subscription is over.
    case complete(Sink)
    /// Stop delivering: no value is wanted or none is there.
    case idle
  }

  /// What the sending thread does with a value it brought.
  package enum Arrival {
    /// Deliver it now: the caller became the deliverer.
    case deliver(Element, Sink)
    /// Kept in the buffer (or dropped by the policy); someone else delivers it, or a later demand.
    case buffered
    /// The subscription is over; the value is dropped.
    case ignored
  }

  package private(set) var phase = Phase.active
  /// The subscriber's outstanding demand; `Int.max` is unlimited.
  package private(set) var demand = 0
  package private(set) var isDelivering = false
  /// Values dropped by the buffering policy.
  package private(set) var droppedCount = 0
  private var sink: Sink?
  private var buffer: [Element] = []
  private var head = 0
  let policy: DemandBufferingPolicy

  package init(sink: Sink, policy: DemandBufferingPolicy) {
    self.sink = sink
    self.policy = policy
  }

  /// How many values wait for demand.
  package var bufferedCount: Int { buffer.count - head }

  /// A value from the source.
  package mutating func receive(_ value: Element) -> Arrival {
    defer { assert(verifyInvariants()) }
    guard phase == .active, let sink else { return .ignored }
    if !isDelivering, demand > 0, bufferedCount == 0 {
      isDelivering = true
      consumeOneDemand()
      return .deliver(value, sink)
    }
    append(value)
    return .buffered
  }

  /// The subscriber asked for `count` more values (`Int.max`: unlimited). Returns `true` when the
  /// caller must start delivering.
  package mutating func request(_ count: Int) -> Bool {
    defer { assert(verifyInvariants()) }
    precondition(count > 0, "request(_:): demand must be greater than zero (Combine's rule)")
    guard phase != .terminal else { return false }
    demand = demand > Int.max - count ? Int.max : demand + count
    return startDeliveringIfWork()
  }

  /// The source ended. Returns `true` when the caller must start delivering (the completion, or
  /// buffered values first).
  package mutating func finish() -> Bool {
    defer { assert(verifyInvariants()) }
    guard phase == .active else { return false }
    phase = .finishing
    return startDeliveringIfWork()
  }

  /// The deliverer handed a value over and the sink asked for `additional` more; what next.
  package mutating func delivered(adding additional: Int) -> Step {
    defer { assert(verifyInvariants()) }
    assert(isDelivering, "delivered(adding:) by a thread that is not the deliverer")
    if additional > 0, phase != .terminal {
      demand = demand > Int.max - additional ? Int.max : demand + additional
    }
    return next()
  }

  /// The deliverer's next step after it became the deliverer.
  package mutating func next() -> Step {
    defer { assert(verifyInvariants()) }
    guard phase != .terminal, let sink else {
      isDelivering = false
      return .idle
    }
    if demand > 0, bufferedCount > 0 {
      consumeOneDemand()
      return .deliver(takeFirst(), sink)
    }
    if phase == .finishing, bufferedCount == 0 {
      phase = .terminal
      isDelivering = false
      self.sink = nil
      return .complete(sink)
    }
    isDelivering = false
    return .idle
  }

  /// The subscriber cancelled (or the token did). Returns what to release after the lock (the
  /// sink and the buffered values), and whether the subscription was live, so the caller ends the
  /// registration.
  package mutating func cancel() -> (wasLive: Bool, released: (Sink?, [Element])) {
    defer { assert(verifyInvariants()) }
    guard phase != .terminal else { return (false, (nil, [])) }
    phase = .terminal
    let released = (sink, Array(buffer[head...]))
    sink = nil
    buffer = []
    head = 0
    return (true, released)
  }

  private mutating func consumeOneDemand() {
    if demand != Int.max { demand -= 1 }
  }

  private mutating func append(_ value: Element) {
    switch policy {
    case .unbounded:
      buffer.append(value)
    case .bufferingNewest(let limit):
      guard limit > 0 else {
        droppedCount += 1
        return
      }
      if bufferedCount == limit {
        head += 1
        droppedCount += 1
      }
      buffer.append(value)
    case .bufferingOldest(let limit):
      guard bufferedCount < limit else {
        droppedCount += 1
        return
      }
      buffer.append(value)
    }
    compactIfNeeded()
  }

  private mutating func takeFirst() -> Element {
    let value = buffer[head]
    head += 1
    compactIfNeeded()
    return value
  }

  private mutating func compactIfNeeded() {
    if head == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 32, head * 2 > buffer.count {
      buffer.removeFirst(head)
      head = 0
    }
  }

  private mutating func startDeliveringIfWork() -> Bool {
    guard !isDelivering else { return false }
    let work = (demand > 0 && bufferedCount > 0) || (phase == .finishing && bufferedCount == 0)
    if work { isDelivering = true }
    return work
  }

  /// The invariants every transition keeps; run under `assert` after each.
  package func verifyInvariants() -> Bool {
    guard demand >= 0, head >= 0, head <= buffer.count else { return false }
    switch phase {
    case .terminal:
      return sink == nil && bufferedCount == 0
    case .active, .finishing:
      guard sink != nil else { return false }
    }
    switch policy {
    case .unbounded: break
    case .bufferingNewest(let limit), .bufferingOldest(let limit):
      guard bufferedCount <= max(limit, 0) else { return false }
    }
    // A value waits only while nobody can take it: no demand, or a deliverer is on its way.
    return isDelivering || demand == 0 || bufferedCount == 0
  }
}

/// The values a publisher's subscription keeps while its subscriber has no demand.
package enum DemandBufferingPolicy: Equatable, Sendable {
  /// Keep every value (the default, as `AsyncStream` and `Event.values` do).
  case unbounded
  /// Keep the newest `n`, dropping the oldest when a new value arrives.
  case bufferingNewest(Int)
  /// Keep the first `n`, dropping new values while full.
  case bufferingOldest(Int)

  /// The policy `AsyncStream` would follow.
  package init<Element>(_ policy: AsyncStream<Element>.Continuation.BufferingPolicy) {
    switch policy {
    case .unbounded: self = .unbounded
    case .bufferingNewest(let limit): self = .bufferingNewest(limit)
    case .bufferingOldest(let limit): self = .bufferingOldest(limit)
    @unknown default: self = .unbounded
    }
  }
}
