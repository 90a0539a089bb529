/// How a ``TimerScheduler`` reads its clock and arranges to wake up.
///
/// Times are offsets from an origin the driver fixes once (its clock's `now` when it was made), so
/// the scheduler and ``ClosureTimer`` need no generic clock parameter.
package protocol TimerDriver: Sendable {
  /// The clock's current time, as an offset from the origin.
  func now() -> Duration
  /// The clock's instant at `offset` from the origin.
  func instant(at offset: Duration) -> any InstantProtocol<Duration>
  /// Arranges for `scheduler.fireDue()` to run at `deadline` (`nil`: never), replacing the previous
  /// arrangement. The scheduler calls it outside its state's lock, one call at a time and in the
  /// order its state asked for them (``TimerScheduler/apply(_:)``); it must not call `fireDue()`
  /// synchronously.
  func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler)
}

/// What a clock gives the timer machinery when it brings its own scheduler (`ManualClock`).
package protocol TimerSchedulerProviding {
  /// The scheduler every timer on this clock uses.
  var timerScheduler: TimerScheduler { get }
}

/// The storage of one clock's timers: a ``TimerSchedulerState`` in a lock, and the runner of the
/// actions its transitions return (driver armings, handler calls, releases), always after the lock.
///
/// A scheduled timer is held strongly by the state's heap, which is why a scheduled timer with no
/// other reference keeps running.
///
/// Lock order: `state`, then the clock's own lock (`driver.now()` on a `ManualClock`); `armOrder`,
/// then the driver's own lock. `state` and `armOrder` are never held together, and neither is held
/// while a handler runs or a reference the state dropped is released.
///
/// `@unchecked Sendable`: `state` and `armOrder` are locks; `driver` is `Sendable`.
package final class TimerScheduler: @unchecked Sendable {
  /// Reads the clock and wakes the scheduler.
  package let driver: any TimerDriver
  /// Every timer's state and the heap; changed only through its transitions, in ``withState(_:)``.
  private let state = Locked(TimerSchedulerState())
  /// The generation of the last arming applied: armings computed under `state`'s lock are applied
  /// after it, under this lock (taken with `state`'s never held), so a stale one never overrides a
  /// later one.
  private let armOrder = Locked<UInt64>(0)

  package init(driver: any TimerDriver) {
    self.driver = driver
  }

  /// Runs a transition (or a read) of the state under its lock; whatever it returns is for the
  /// caller to act on, or release, after the lock.
  func withState<Result>(_ body: (inout TimerSchedulerState) -> Result) -> Result {
    state.withLock(body)
  }

  /// Applies an arming the state asked for, unless a later one was applied already.
  func apply(_ arm: TimerSchedulerState.Arm?) {
    guard let arm else { return }
    armOrder.withLock { applied in
      guard arm.generation > applied else { return }
      applied = arm.generation
      driver.arm(at: arm.deadline, leeway: arm.leeway, for: self)
    }
  }

  /// Applies what ending or unscheduling a timer left to do, then releases it.
  func apply(_ released: TimerSchedulerState.Released) {
    apply(released.arm)
    withExtendedLifetime(released) {}
  }

  /// Fires, in deadline order, every timer whose deadline is not after the clock's current time,
  /// then re-arms the driver for the earliest remaining deadline. Handlers with immediate delivery
  /// run on the calling thread before this returns.
  package func fireDue() {
    while true {
      let step = state.withLock { $0.advance(now: driver.now()) }
      switch step {
      case .release(let timer, let handler):
        // An orphaned timer's last references: their deinits run here, before the next step.
        withExtendedLifetime((timer, handler)) {}
      case .call(let call):
        run(call)
      case .idle(let arm):
        apply(arm)
        return
      }
    }
  }

  /// Runs a committed call: the handler now (immediate delivery), or a job on the timer's delivery
  /// that starts the call then. The owner stays held until the call has been handed over.
  private func run(_ call: TimerSchedulerState.Call) {
    let timer = call.timer
    guard let handler = call.handler else {
      timer.delivery.execute(timer.makeCall(skipped: call.skipped, reportsEnd: call.reportsEnd))
      withExtendedLifetime(call.owner) {}
      return
    }
    handler(timer)
    if call.reportsEnd { timer.finishCall() }
    withExtendedLifetime(call.owner) {}
  }

  /// The number of scheduled timers (for tests and benchmarks).
  package var scheduledCount: Int {
    withState { $0.heap.count }
  }

  /// Checks every invariant of the state, at any size (for the model test).
  package func verifyInvariants() -> Bool {
    withState { $0.verifyInvariants(always: true) }
  }
}
