import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

@testable import ClosureKit

/// Two ``Observed`` boxes bound both ways settle, however the binding is written and however many
/// threads write them at once.
@Suite struct ObservedBindingTests {
  /// How a binding's handler writes the other box.
  enum Style: String, Sendable, CustomTestStringConvertible {
    /// `other.value = change.newValue!`: the way KVO bindings are written.
    case copiesNewValue
    /// `other.value = box.value`: the current value, as Observation.md once asked.
    case copiesCurrentValue

    var testDescription: String { rawValue }
  }

  /// What one round saw.
  struct Outcome: Sendable {
    /// Whether every writer returned before the deadline.
    let settled: Bool
    let a: Int
    let b: Int
    /// How many times the two handlers were called.
    let calls: Int
  }

  /// The rounds of each case, and the writes each thread makes in a round.
  static let rounds = 100
  static let writesPerThread = isUnderThreadSanitizer || isUnderAddressSanitizer ? 100 : 500
  /// How long a round may take: a round that settles takes milliseconds; one that spins (the two
  /// boxes rewriting each other with stale values) never ends, and fails the test at this deadline.
  static let roundDeadline: Duration = .seconds(20)

  /// Two boxes that skip equal writes, bound both ways, written from `threads` threads at once
  /// (half of them write `a`, half `b`, each its own values), 100 rounds: every round settles
  /// (every writer returns) and leaves the two boxes equal. Before changes queued behind another
  /// thread's delivery were coalesced to the box's latest state, the `copiesNewValue` binding spun
  /// in most rounds: the queued changes carried stale values, which the boxes kept handing back
  /// and forth.
  ///
  /// The four cases run one after another: at once, their up to twelve busy threads starved the
  /// rest of a `swift test` run on 2 cores.
  @Test(.heavy, .serialized, arguments: [Style.copiesNewValue, .copiesCurrentValue], [2, 4])
  func aTwoWayBindingWrittenFromSeveralThreadsAtOnceSettles(style: Style, threads: Int) async {
    var rounds = 0
    var calls = 0
    for round in 1...Self.rounds {
      let outcome = await Self.runRound(style: style, threads: threads)
      rounds = round
      calls += outcome.calls
      guard outcome.settled else {
        let seen = "a = \(outcome.a), b = \(outcome.b), \(outcome.calls) handler calls"
        Issue.record("round \(round) had not settled after \(Self.roundDeadline): \(seen)")
        break
      }
      #expect(outcome.a == outcome.b, "round \(round)")
    }
    print("ObservedBindingTests \(style.rawValue), \(threads) threads: \(rounds) rounds, \(calls) handler calls")
  }

  /// One round: binds two new boxes, starts the writers on threads of their own, waits for them
  /// with a deadline. After the deadline the handlers stop writing, so that a spinning round ends
  /// and does not burn the machine for the rest of the run.
  static func runRound(style: Style, threads: Int) async -> Outcome {
    let a = Observed(0, skipsEqualValues: true)
    let b = Observed(0, skipsEqualValues: true)
    let stop = Locked(false)
    let calls = Counter()
    let toB = a.observe { change in
      calls.increment()
      if stop.withLock({ $0 }) { return }
      b.value = style == .copiesNewValue ? change.newValue! : a.value
    }
    let toA = b.observe { change in
      calls.increment()
      if stop.withLock({ $0 }) { return }
      a.value = style == .copiesNewValue ? change.newValue! : b.value
    }
    let done = Expectation(count: threads)
    for thread in 0..<threads {
      let box = thread % 2 == 0 ? a : b
      onOwnThread {
        for write in 1...writesPerThread { box.value = (thread + 1) * 1_000_000 + write }
        done.fulfill()
      }
    }
    let settled = await done.wait(timeout: roundDeadline)
    if !settled {
      stop.withLock { $0 = true }
      _ = await done.wait(timeout: roundDeadline)
    }
    let outcome = Outcome(settled: settled, a: a.value, b: b.value, calls: calls.value)
    // Each handler captures the other box: cancelled, so the boxes are freed (ASan's leak check).
    toB.cancel()
    toA.cancel()
    return outcome
  }

  /// Writes from one thread keep one callback per write, each with its own values, bound or not:
  /// coalescing applies only to changes queued behind another thread's delivery.
  @Test func writesFromOneThreadAreEachDeliveredWithTheirOwnValues() {
    let a = Observed(0, skipsEqualValues: true)
    let b = Observed(0, skipsEqualValues: true)
    let seenA = Recorder<Change<Int>>()
    let seenB = Recorder<Change<Int>>()
    let toB = a.observe(options: [.old, .new]) { change in
      seenA.append(change)
      b.value = change.newValue!
    }
    let toA = b.observe(options: [.old, .new]) { change in
      seenB.append(change)
      a.value = change.newValue!
    }
    defer {
      toB.cancel()
      toA.cancel()
    }
    for value in 1...1_000 { a.value = value }
    let expected = (1...1_000).map { Change(oldValue: $0 - 1, newValue: $0) }
    #expect(seenA.values == expected)
    #expect(seenB.values == expected)
    #expect(b.value == 1_000)
  }
}
