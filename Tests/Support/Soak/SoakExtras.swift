import ClosureKit
import ClosureKitTesting
import Dispatch
import Synchronization

/// The sources every worker shares besides the events: two `Observed` boxes bound both ways,
/// delayed work on a `ManualClock` and on the real clock, and dialogs on the scripted presenter.
final class SoakExtras: Sendable {
  private let counters: SoakCounters
  /// Bound both ways, each copying the other's current value (the binding Observation.md shows):
  /// written from every worker at once, they must settle on one value.
  let left = Observed(0, skipsEqualValues: true)
  let right = Observed(0, skipsEqualValues: true)
  private let bindings = Mutex<[HandlerSubscription]>([])
  /// Entered for each real-clock delay, left by its run or by a cancel that won.
  let pendingDelays = DispatchGroup()
  /// Entered for each dialog, left when its `present` returns.
  let openDialogs = DispatchGroup()

  init(counters: SoakCounters) {
    self.counters = counters
    let (left, right) = (left, right)
    let toRight = left.observe { _ in right.value = left.value }
    let toLeft = right.observe { _ in left.value = right.value }
    bindings.withLock { $0 = [toRight, toLeft] }
  }

  func step(worker: Int, using random: inout SeededGenerator) {
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<3: left.value = Int.random(in: 0..<1_000, using: &random)
    case 3..<6: right.value = Int.random(in: 0..<1_000, using: &random)
    case 6: manualClockDelays(using: &random)
    case 7, 8: realClockDelay(using: &random)
    default: dialog(using: &random)
    }
  }

  /// Delayed work on a `ManualClock`: every piece not cancelled runs exactly once when the clock
  /// passes its deadline; a cancelled one never does.
  private func manualClockDelays(using random: inout SeededGenerator) {
    let clock = ManualClock()
    var work: [(record: HandlerRecord, token: HandlerSubscription, cancelled: Bool)] = []
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      let record = HandlerRecord(worker: -1, source: -1)
      let capture = Capture(counters)
      let token = ClosureTimer.perform(after: .milliseconds(Int.random(in: 0...50, using: &random)), clock: clock) {
        withExtendedLifetime(capture) { record.called(with: Payload(worker: -1, sequence: 0)) }
      }
      work.append((record, token, false))
    }
    for position in work.indices where Bool.random(using: &random) {
      work[position].token.cancel()
      work[position].record.end()
      work[position].cancelled = true
    }
    clock.advance(by: .milliseconds(50))
    for item in work {
      let calls = item.record.allCalls.load(ordering: .relaxed)
      if item.cancelled ? calls != 0 : calls != 1 {
        counters.fail("ManualClock: delayed work ran \(calls) times (cancelled: \(item.cancelled))")
      }
    }
  }

  /// Delayed work on the real clock, sometimes cancelled at once: every piece not cancelled runs
  /// once (checked at the end, with a deadline). Whether a cancelled one started late cannot be
  /// told apart from one the timer thread started just before the cancel; the ManualClock steps
  /// check that rule exactly.
  private func realClockDelay(using random: inout SeededGenerator) {
    let record = HandlerRecord(worker: -1, source: -1)
    let claimed = Atomic<Bool>(false)
    let capture = Capture(counters)
    let group = pendingDelays
    group.enter()
    let token = ClosureTimer.perform(after: .microseconds(Int.random(in: 0...500, using: &random))) {
      withExtendedLifetime(capture) { record.called(with: Payload(worker: -1, sequence: 0)) }
      if claimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
        group.leave()
      }
    }
    if Bool.random(using: &random) {
      token.cancel()
      record.end()
      if claimed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
        group.leave()
      }
    }
  }

  /// A dialog on the scripted presenter, answered, dismissed or cancelled from its task: at most one
  /// button action runs, and `present` returns.
  private func dialog(using random: inout SeededGenerator) {
    let actions = Atomic<Int>(0)
    let alert = AlertDialog(title: "soak")
    alert.addButton("OK") { _ in actions.wrappingAdd(1, ordering: .relaxed) }
    alert.addButton("Cancel", role: .cancel) { _ in actions.wrappingAdd(1, ordering: .relaxed) }
    let steps: [ScriptedPresenter.Step] = [.choose(0), .dismiss, .waitUntilCancelled]
    let step = steps[Int.random(in: 0..<steps.count, using: &random)]
    let counters = counters
    let group = openDialogs
    group.enter()
    let task = Task {
      _ = try? await alert.present(on: ScriptedPresenter([step]))
      if actions.load(ordering: .relaxed) > 1 {
        counters.fail("a dialog ran \(actions.load(ordering: .relaxed)) actions")
      }
      group.leave()
    }
    if step == .waitUntilCancelled { task.cancel() }
  }

  /// Ends the binding; the boxes must hold one value.
  func finish() -> String? {
    bindings.withLock { $0.forEach { $0.cancel() } }
    let (l, r) = (left.value, right.value)
    return l == r ? nil : "the bound boxes did not settle: left \(l), right \(r)"
  }
}
