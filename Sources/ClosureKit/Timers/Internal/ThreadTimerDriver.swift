import Dispatch

/// Wakes a scheduler from one dedicated thread that blocks on a semaphore with a timeout at the
/// earliest deadline: one thread switch per wake-up, no thread busy while nothing is due.
///
/// The thread starts on the first arming and lives as long as the process (the standard clocks'
/// schedulers are global). `arm` only stores the deadline and signals the semaphore; the thread
/// calls `fireDue()` outside every lock.
///
/// `@unchecked Sendable`: the mutable state is in a `Locked`; the semaphore is thread-safe.
final class ThreadTimerDriver<C: Clock>: ClockTimerDriver<C>, @unchecked Sendable where C.Duration == Duration {
  struct State {
    /// The deadline to wake at; `nil`: wait until armed.
    var armed: Duration?
    /// The scheduler to wake; set on the first arming, which starts the thread.
    var scheduler: TimerScheduler?
  }

  let state = Locked(State())
  /// Signalled on every arming, so the thread re-reads the deadline.
  let wakeup = DispatchSemaphore(value: 0)

  override func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler) {
    let (isFirst, isEarlier) = state.withLock { state -> (Bool, Bool) in
      let previous = state.armed
      state.armed = deadline
      // Only an earlier deadline needs the thread now; it re-reads the state after each wait.
      let isEarlier = deadline.map { deadline in previous.map { deadline < $0 } ?? true } ?? false
      guard state.scheduler == nil, deadline != nil else { return (false, isEarlier) }
      state.scheduler = scheduler
      return (true, isEarlier)
    }
    if isFirst { startThread() }
    if isEarlier { wakeup.signal() }
  }

  /// Starts the thread that runs ``run()``, at the priority Dispatch gives user-initiated work
  /// (see ``SchedulerThreadPriority``): it runs every immediate handler of its clock, so at the
  /// default priority a busy machine starved it of ticks that Dispatch's timers kept.
  private func startThread() {
    startDetachedThread {
      SchedulerThreadPriority.raiseCurrentThread()
      self.run()
    }
  }

  /// The thread's loop: wait for the armed deadline, then fire what is due.
  private func run() {
    while true {
      let (deadline, scheduler) = state.withLock { ($0.armed, $0.scheduler) }
      guard let deadline, let scheduler else {
        wakeup.wait()
        continue
      }
      let delay = deadline - now()
      if delay > .zero {
        _ = wakeup.wait(timeout: .now() + .nanoseconds(delay.nanoseconds))
        continue
      }
      state.withLock { state in
        if state.armed == deadline { state.armed = nil }
      }
      scheduler.fireDue()
    }
  }
}
