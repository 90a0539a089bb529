import ClosureKitTestSupport
import Testing

@testable import ClosureKit

/// The re-entrant cases the rules did not settle, as decided in the articles (Events.md,
/// Observation.md: "Detailed semantics").
@Suite struct ReentrantEdgeCaseTests {
  /// A write made by a prior callback waits for the change it interrupted: every observer sees the
  /// changes in write order, each starting where the one before it ended, and the last change
  /// carries the box's value.
  @Test func aWriteFromAPriorCallbackIsDeliveredAfterTheChangeItInterrupted() {
    let box = Observed(1)
    let seen = Recorder<String>()
    // The observer captures its box (a cycle the lifetime rule keeps): cancelled at the end.
    let writer = box.observe(options: [.prior, .old, .new]) { change in
      if change.isPrior {
        seen.append("prior \(change.oldValue!)")
        if change.oldValue == 1 { box.value = 5 }
      } else {
        seen.append("\(change.oldValue!)→\(change.newValue!)")
      }
    }
    defer { writer.cancel() }
    let other = Recorder<String>()
    box.observe(options: [.old, .new]) { other.append("\($0.oldValue!)→\($0.newValue!)") }
    box.value = 2
    #expect(seen.values == ["prior 1", "1→2", "prior 2", "2→5"])
    #expect(other.values == ["1→2", "2→5"])
    #expect(box.value == 5)
  }

  /// The same for a change the delivering thread takes from the queue (another thread's write):
  /// a write from its prior callback is delivered after its post callbacks.
  @Test func aWriteFromAQueuedChangesPriorCallbackIsDeliveredAfterIt() async {
    let box = Observed(0)
    let seen = Recorder<String>()
    let release = Gate()
    let holding = Gate()
    // The observer captures its box (a cycle the lifetime rule keeps): cancelled at the end.
    let writer = box.observe(options: [.prior, .old, .new]) { change in
      if change.isPrior {
        seen.append("prior \(change.oldValue!)")
        if change.oldValue == 1 { box.value = 5 }
      } else {
        seen.append("\(change.oldValue!)→\(change.newValue!)")
        if change.newValue == 1 {
          holding.open()
          release.wait()
        }
      }
    }
    defer { writer.cancel() }
    // The first write's thread delivers and holds in its post callback while another thread's
    // write (1 → 2) is queued behind it; that change's prior callback writes 5.
    let firstWrite = Gate()
    onOwnThread {
      box.value = 1
      firstWrite.open()
    }
    #expect(await holding.waitOpen())
    await onNewThread { box.value = 2 }
    release.open()
    #expect(await firstWrite.waitOpen())
    #expect(seen.values == ["prior 0", "0→1", "prior 1", "1→2", "prior 2", "2→5"])
  }

  /// `removeActions(for:)` during a send of that kind: the actions it ends (registered for no
  /// other kind) and the send has not reached are not called, as with a cancel; an action that
  /// stays registered for another kind is still called by that send, which chose its actions when
  /// it started, and by no later send of the removed kind.
  @Test func removeActionsDuringASendSkipsTheActionsItEndsOnly() {
    let actions = ControlActions<TestKind, Void>()
    let calls = Recorder<String>()
    actions.addAction(for: .down) {
      calls.append("remover")
      actions.removeActions(for: .down)
    }
    actions.addAction(for: .down) { calls.append("down only") }
    actions.addAction(for: [.down, .up]) { calls.append("down and up") }
    actions.sendActions(for: .down, with: ())
    #expect(calls.values == ["remover", "down and up"])
    actions.sendActions(for: .down, with: ())
    actions.sendActions(for: .up, with: ())
    #expect(calls.values == ["remover", "down and up", "down and up"])
  }

  /// The last reference to an event dropped by one of its handlers: the send holds the event, so it
  /// goes on to the handlers after that one; the event ends its handlers (and releases their
  /// captures) once the send returns.
  @Test func anEventWhoseLastReferenceIsDroppedDuringItsSendFinishesTheSend() {
    let holder = Slot<Event<Int>>()
    holder.value = Event<Int>()
    weak let weakEvent = holder.value
    let calls = Recorder<String>()
    let witness = CaptureWitness()
    holder.value!.addHandler { _ in
      calls.append("first")
      holder.value = nil
      calls.append(weakEvent == nil ? "gone" : "alive")
    }
    holder.value!.addHandler(witness.capturing { (_: Int) in calls.append("second") })
    holder.value?.send(1)
    #expect(calls.values == ["first", "alive", "second"])
    #expect(weakEvent == nil)
    #expect(witness.isReleased)
  }
}

/// A one-way gate: threads wait until it is opened.
private final class Gate: Sendable {
  private let state = GateLock(false)

  /// Opens the gate, waking the waiting threads.
  func open() { state.withLock { $0 = true } }

  /// Blocks this thread until the gate is open.
  func wait() {
    state.withLock(waitingWhile: { !$0 }) { _ in }
  }

  /// Resumes once the gate is open; `false` after ``crossThreadDeadline``.
  func waitOpen() async -> Bool {
    await eventually { state.withLock { $0 } }
  }
}
