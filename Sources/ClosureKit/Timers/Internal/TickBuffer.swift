/// The one-element buffer between a ``ClosureTimer/ticks(_:clock:)`` timer and the loop that reads
/// it: the newest tick waits, an older one it replaces is counted as skipped.
///
/// Built on the timer's public API only (`schedule`, `fireCount`, `skippedTickCount`,
/// `invalidate`). Its logic is the pure ``State``: each transition runs under the lock and returns
/// what to do; continuations are resumed and the timer invalidated after the lock is released.
final class TickBuffer: Sendable {
  /// What the buffer holds, and the transitions on it.
  struct State {
    /// Where the sequence is in its life.
    enum Phase: Equatable {
      /// The timer ticks.
      case running
      /// The timer made its last call; the waiting tick is still returned, then `nil`.
      case sourceFinished
      /// The loop ended or its task was cancelled: no tick is returned any more.
      case ended
    }

    var phase = Phase.running
    /// The newest tick not taken yet, and the ticks it stands for beyond one.
    var pending: (fireCount: Int, skipped: Int)?
    /// The loop waiting for a tick.
    var waiter: CheckedContinuation<Int?, Never>?
    /// The skipped count of the tick returned last.
    var skippedTickCount = 0
    /// The timer, to invalidate it when the loop ends; kept for tests after that.
    var timer: ClosureTimer?

    /// What ``deliver(_:skipped:isFinal:)`` leaves to do after the lock.
    enum DeliverAction {
      case none
      case resume(CheckedContinuation<Int?, Never>, Int?)
    }

    /// A tick of the timer: handed to the waiting loop, or kept as the newest.
    mutating func deliver(_ fireCount: Int, skipped: Int, isFinal: Bool) -> DeliverAction {
      guard phase == .running else { return .none }
      if isFinal { phase = .sourceFinished }
      if let waiter {
        self.waiter = nil
        skippedTickCount = skipped
        return .resume(waiter, fireCount)
      }
      if let dropped = pending {
        pending = (fireCount, dropped.skipped + 1 + skipped)
      } else {
        pending = (fireCount, skipped)
      }
      return .none
    }

    /// What ``take()`` found.
    enum TakeAction: Equatable {
      /// A tick was waiting.
      case tick(Int)
      /// The sequence is over.
      case end
      /// Nothing yet: wait.
      case wait
    }

    /// The loop asks for the next tick.
    mutating func take() -> TakeAction {
      if let (fireCount, skipped) = pending {
        pending = nil
        skippedTickCount = skipped
        return .tick(fireCount)
      }
      return phase == .running ? .wait : .end
    }

    /// The loop waits with `continuation`: stores it, or returns the answer if one came meanwhile.
    mutating func wait(_ continuation: CheckedContinuation<Int?, Never>) -> Int?? {
      switch take() {
      case .tick(let fireCount): return .some(fireCount)
      case .end: return .some(nil)
      case .wait:
        waiter = continuation
        return nil
      }
    }

    /// The loop ended or was cancelled: returns the waiter to resume with `nil` and the timer to
    /// invalidate.
    mutating func end() -> (CheckedContinuation<Int?, Never>?, ClosureTimer?) {
      guard phase != .ended else { return (nil, nil) }
      phase = .ended
      pending = nil
      defer { waiter = nil }
      return (waiter, timer)
    }

    /// The timer is known: returns it if the loop ended already, to be invalidated.
    mutating func attach(_ timer: ClosureTimer) -> ClosureTimer? {
      self.timer = timer
      return phase == .ended ? timer : nil
    }

    /// A waiting loop only while running with nothing pending.
    func verifyInvariants() -> Bool {
      waiter == nil || (phase == .running && pending == nil)
    }
  }

  let state = Locked(State())

  /// A tick of the timer, from its handler.
  func deliver(_ fireCount: Int, skipped: Int, isFinal: Bool) {
    let action = state.withLock { state in
      defer { assert(state.verifyInvariants()) }
      return state.deliver(fireCount, skipped: skipped, isFinal: isFinal)
    }
    if case .resume(let waiter, let value) = action { waiter.resume(returning: value) }
  }

  /// Keeps the timer, to end it with the loop.
  func attach(_ timer: ClosureTimer) {
    state.withLock { $0.attach(timer) }?.invalidate()
  }

  /// Ends the sequence: no more ticks, the waiting loop gets `nil`, the timer is invalidated.
  func end() {
    let (waiter, timer) = state.withLock { state in
      defer { assert(state.verifyInvariants()) }
      return state.end()
    }
    timer?.invalidate()
    waiter?.resume(returning: nil)
  }

  /// The next tick, waiting for it; `nil` once the sequence is over or the task is cancelled.
  func next() async -> Int? {
    if Task.isCancelled {
      end()
      return nil
    }
    switch state.withLock({ $0.take() }) {
    case .tick(let fireCount): return fireCount
    case .end: return nil
    case .wait: break
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let answer = state.withLock { state in
          defer { assert(state.verifyInvariants()) }
          return state.wait(continuation)
        }
        if let answer { continuation.resume(returning: answer) }
      }
    } onCancel: {
      end()
    }
  }

  /// The skipped count of the tick returned last.
  var skippedTickCount: Int { state.withLock { $0.skippedTickCount } }

  /// The timer, once attached.
  var timer: ClosureTimer? { state.withLock { $0.timer } }
}
