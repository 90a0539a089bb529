import Synchronization

// Each worker has its own `SeededGenerator` (ClosureKitTesting), so a seed replays each thread's
// sequence of operations (not the threads' interleaving, which the scheduler decides).

/// The whole run's counters, shared by every worker.
final class SoakCounters: Sendable {
  /// Captured objects made and released: equal once every handler has ended.
  let capturesMade = Atomic<Int>(0)
  let capturesReleased = Atomic<Int>(0)
  /// Steps taken, for the report.
  let steps = Atomic<Int>(0)
  /// Incremented by every send before it calls `send`, and read when a handler ends: a call whose
  /// send took a ticket above the handler's end ticket was sent after the handler ended.
  let sendClock = Atomic<Int>(0)
  /// The first violation found; the run stops at it.
  private let firstFailure = Mutex<String?>(nil)

  var failure: String? { firstFailure.withLock { $0 } }

  func fail(_ message: String) {
    firstFailure.withLock { if $0 == nil { $0 = message } }
  }
}

/// An object a handler captures: counts its own release, so a handler that ends and keeps its
/// captures is found.
final class Capture: Sendable {
  let counters: SoakCounters

  init(_ counters: SoakCounters) {
    self.counters = counters
    counters.capturesMade.wrappingAdd(1, ordering: .relaxed)
  }

  deinit { counters.capturesReleased.wrappingAdd(1, ordering: .relaxed) }
}

/// The payload of a send: which worker sent it, so a worker checks exactly what its own sends
/// delivered.
struct Payload: Sendable {
  let worker: Int
  let sequence: Int
  /// The send's ticket from ``SoakCounters/sendClock``.
  var ticket = 0
}

/// What one handler has seen.
final class HandlerRecord: Sendable {
  let worker: Int
  let source: Int
  /// Calls for payloads of its own worker's sends.
  let ownCalls = Atomic<Int>(0)
  /// Calls of any kind (for `once`: at most one).
  let allCalls = Atomic<Int>(0)
  /// The send clock's value read once the handler ended (its `cancel()` returned, its owner's
  /// deinit ran, its bag ended); `Int.max` while it is live. A call for a send whose ticket is
  /// higher was sent after the handler ended: the lifetime rule says it must not run. (A flag read
  /// inside the handler would also catch calls the source started just before the end, which the
  /// rule allows to finish; the ticket does not.)
  let endTicket = Atomic<Int>(.max)
  /// Set by a call for a send made after the handler ended.
  let startedAfterEnd = Atomic<Bool>(false)

  /// How it was registered, for a failure's message.
  let kind: String
  /// Why it ended, for a failure's message; written before `ended` is set.
  let endReason = Mutex<String>("")

  init(worker: Int, source: Int, kind: String = "", counters: SoakCounters? = nil) {
    self.worker = worker
    self.source = source
    self.kind = kind
    self.counters = counters
  }

  private let counters: SoakCounters?

  /// The body of every handler: checks the lifetime rule, then counts.
  func called(with payload: Payload) {
    if payload.ticket > endTicket.load(ordering: .sequentiallyConsistent) {
      startedAfterEnd.store(true, ordering: .relaxed)
    }
    allCalls.wrappingAdd(1, ordering: .relaxed)
    if payload.worker == worker { ownCalls.wrappingAdd(1, ordering: .relaxed) }
  }

  func end(_ reason: String = "cancelled") {
    endReason.withLock { $0 = reason }
    endTicket.store(
      counters?.sendClock.load(ordering: .sequentiallyConsistent) ?? .max, ordering: .sequentiallyConsistent)
  }

  var summary: String { "a \(kind) handler on event \(source) (\(endReason.withLock { $0 }))" }
}

/// An owner for `owner:` registrations: its deinit ends the handlers bound to it, as the lifetime
/// rule says (a call that already holds it strongly may still finish).
final class SoakOwner: Sendable {
  private let records = Mutex<[HandlerRecord]>([])

  func bind(_ record: HandlerRecord) { records.withLock { $0.append(record) } }

  deinit { records.withLock { $0.forEach { $0.end("owner died") } } }
}
