// Where a cancel that finds its work taken by another canceller waits for it to finish.
//
// A cancel moves what it ends (a node, a bag's tokens, a group's parts) through three states:
// live, cancelling (one caller has taken the work and is ending the handlers, releasing their
// captures) and ended. A second caller that finds it cancelling waits here until it has ended, so
// that every `cancel()` that returns, on any thread, means the same: no delivery starts, and the
// captures are released unless a send is running. Waiting is rare (two threads cancelling one
// thing at once), so every waiter of the process shares one condition: a canceller that finishes
// wakes it only when a waiter has marked its work as awaited.
//
// Re-entrancy: the work of a cancel runs user code (the deinit of a released capture, an
// `onCancel` closure), which may cancel again, also the very thing being cancelled on this thread.
// Such a cancel does not wait (`isRunningEffects`): it does its own part and returns, so no cancel
// ever waits for itself. A handler running in a send is not a cancel's effect: a cancel from it
// waits like any other, for a canceller that runs no send of its own meanwhile.

/// The waiting room of cancels; see the file's comment.
@usableFromInline
enum CancelGate {
  /// The one condition every waiting cancel sleeps on, and its mutex; the value counts the wakes.
  /// (With a `Void` value, ThreadSanitizer reported the gate's accesses to it as races, once
  /// between a thread holding the mutex and one back from `pthread_cond_wait`; with an `Int`, none
  /// in the same tests. Not understood further.)
  @usableFromInline static let gate = GateLock<Int>(0)

  /// Runs `body`, the work of a cancel that may run user code, marked on this thread so that a
  /// cancel made from inside it does not wait for another thread's.
  @inlinable @inline(__always)
  static func runningEffects<Result>(_ body: () -> Result) -> Result {
    let counter = cancelEffectsCounter
    counter.pointee += 1
    defer { counter.pointee -= 1 }
    return body()
  }

  /// Whether this thread is running the work of a cancel (``runningEffects(_:)``).
  @inlinable
  static var isRunningEffects: Bool { cancelEffectsDepth > 0 }

  /// Sleeps until `isPending` is false; `isPending` is asked under the gate's mutex, so a
  /// canceller that changes its state and then calls ``wake()`` cannot be missed.
  @usableFromInline
  static func wait(while isPending: () -> Bool) {
    gate.withLock(waitingWhile: { _ in isPending() }) { _ in }
  }

  /// Wakes every waiting cancel, each to check its own state again (the gate broadcasts after any
  /// body while some thread waits).
  @usableFromInline
  static func wake() {
    gate.withLock { $0 &+= 1 }
  }
}
