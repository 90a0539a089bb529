/// The state of one ``HandlerValues`` sequence: the values its handler received and no consumer
/// has taken, the end, and the consumers waiting. A pure state machine: each transition returns
/// what to resume after the lock is released.
///
/// Several consumers may wait at once, as on an `AsyncStream`: each value goes to the consumer
/// that has waited longest, and the end resumes every waiting consumer with `nil`.
///
/// Invariants (``verifyInvariants()``, asserted after every transition in debug builds):
/// - a consumer waits only while no value waits and the sequence has not ended;
/// - `head` is within `pending`;
/// - with `.bufferingOldest(n)` or `.bufferingNewest(n)`, at most `max(n, 0)` values wait.
struct HandlerValuesState<Element: Sendable> {
  /// A suspended consumer.
  ///
  /// Unsafe continuation: each is resumed exactly once because every transition that returns
  /// one removes it from ``first`` or ``others`` under the lock, and only a returned continuation is resumed.
  typealias Consumer = UnsafeContinuation<Element?, Never>

  /// What to keep while no consumer waits.
  let policy: AsyncStream<Element>.Continuation.BufferingPolicy
  /// The values received and not taken, from ``head`` on.
  var pending: [Element] = []
  /// The first value of ``pending`` not taken yet (bounded policies take one value at a time).
  var head = 0
  /// Whether the sequence ended: its source is gone, or a consumer stopped. Values still in
  /// ``pending`` are delivered; no new value is kept.
  var isFinished = false
  /// The consumer that has waited longest, suspended until a value or the end arrives. Kept
  /// apart from ``others`` so that the usual single consumer never touches an array (this code
  /// is not specialised for the element type: an array operation looks up type metadata).
  var first: Consumer?
  /// The consumers waiting behind ``first``, longest-waiting first.
  var others: [Consumer] = []

  init(policy: AsyncStream<Element>.Continuation.BufferingPolicy) {
    self.policy = policy
  }

  /// How many values wait for a consumer.
  var count: Int { pending.count - head }

  /// How many consumers wait.
  var waitingCount: Int { first == nil ? 0 : 1 + others.count }

  /// Removes and returns the longest-waiting consumer, if one waits.
  private mutating func popWaiting() -> Consumer? {
    guard let consumer = first else { return nil }
    first = others.isEmpty ? nil : others.removeFirst()
    return consumer
  }

  /// A value was sent: returns the longest-waiting consumer to resume with it, if one waits.
  mutating func receive(_ value: Element) -> Consumer? {
    defer { assert(verifyInvariants()) }
    if isFinished { return nil }
    if let consumer = popWaiting() { return consumer }
    switch policy {
    case .unbounded:
      pending.append(value)
    case .bufferingOldest(let limit):
      if count < limit { pending.append(value) }
    case .bufferingNewest(let limit):
      guard limit > 0 else { return nil }
      if count == limit { head += 1 }
      if head > 32 && head * 2 > pending.count {
        pending.removeFirst(head)
        head = 0
      }
      pending.append(value)
    @unknown default:
      pending.append(value)
    }
    return nil
  }

  /// What a consumer gets when its own buffer is empty.
  enum TakeAction {
    /// Every waiting value is now in the consumer's buffer (unbounded policy).
    case batch
    /// The next value (bounded policies take one at a time, so the limit counts every value no
    /// consumer has taken, as `AsyncStream`'s does).
    case one(Element)
    /// The sequence ended and nothing is left.
    case end
    /// Nothing yet: suspend.
    case suspend
  }

  /// Takes what waits; `buffer` comes in empty, and its storage is kept for later values.
  mutating func take(into buffer: inout [Element]) -> TakeAction {
    defer { assert(verifyInvariants()) }
    if count > 0 {
      if case .unbounded = policy {
        // The values before `head` were taken one at a time (``suspend(_:)`` pops one when values
        // arrived between a take and the suspension): they go, so that the batch holds only
        // waiting values and the empty buffer it leaves starts at 0.
        if head > 0 {
          pending.removeFirst(head)
          head = 0
        }
        swap(&buffer, &pending)
        return .batch
      }
      return .one(popFirst())
    }
    return isFinished ? .end : .suspend
  }

  /// Removes and returns the oldest pending value (there is one: `count > 0`); the storage is
  /// kept for later values once the last is taken.
  private mutating func popFirst() -> Element {
    let value = pending[head]
    head += 1
    if head == pending.count {
      pending.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// What becomes of a consumer about to suspend.
  enum SuspendAction {
    /// It waits: the continuation is queued behind the consumers already waiting.
    case suspended
    /// A value or the end (`nil`) arrived since ``take(into:)``: resume it with this at once.
    case resume(Element?)
  }

  /// Queues the suspended consumer, unless a value or the end arrived since ``take(into:)``.
  mutating func suspend(_ consumer: Consumer) -> SuspendAction {
    defer { assert(verifyInvariants()) }
    if count > 0 { return .resume(popFirst()) }
    if isFinished { return .resume(nil) }
    if first == nil { first = consumer } else { others.append(consumer) }
    return .suspended
  }

  /// The sequence ends: returns every waiting consumer, to resume with `nil`.
  mutating func finish() -> [Consumer] {
    defer { assert(verifyInvariants()) }
    isFinished = true
    guard let consumer = first else { return [] }
    defer {
      first = nil
      others = []
    }
    return [consumer] + others
  }

  /// A dropped iterator returns the values it had taken and not returned (`leftovers`, in reverse
  /// order, the next one last): they go back in front of the waiting values, as if never taken.
  /// Returns the consumers to resume, each with its value, longest-waiting first.
  mutating func giveBack(_ leftovers: inout [Element]) -> [(Consumer, Element)] {
    defer { assert(verifyInvariants()) }
    var resumptions: [(Consumer, Element)] = []
    // Consumers wait only while nothing else does, so the leftovers are the oldest values.
    while first != nil, let value = leftovers.popLast() {
      resumptions.append((popWaiting()!, value))
    }
    if !leftovers.isEmpty {
      leftovers.withUnsafeMutableBufferPointer { $0.reverse() }
      pending.replaceSubrange(0..<head, with: leftovers)
      head = 0
    }
    return resumptions
  }

  /// Whether the invariants in the type's comment hold.
  func verifyInvariants() -> Bool {
    guard head >= 0 && head <= pending.count else { return false }
    if first == nil && !others.isEmpty { return false }
    if first != nil && (count > 0 || isFinished) { return false }
    switch policy {
    case .bufferingOldest(let limit), .bufferingNewest(let limit):
      return count <= max(limit, 0)
    default:
      return true
    }
  }
}
