import ClosureKit
import Foundation

/// Wakes the scheduler of one RunLoop-scheduled ``ClosureTimer`` with one Foundation `Timer` in
/// that run loop and mode: the timer's handler runs on the run loop's thread, and only while the
/// run loop runs in that mode.
///
/// The Foundation timer repeats with a huge interval so that it stays valid after it fires; each
/// arming moves its `fireDate` to the next deadline, and disarming (the timer invalidated, paused
/// or done) invalidates it.
///
/// Nothing here keeps a run loop alive. A run loop holds descriptors (on Linux an epoll instance,
/// an eventfd and a timerfd) until it is deallocated, which happens when its thread exits unless
/// something still references it:
/// - the run loop is held weakly: a timer kept past its thread's exit does not keep the loop;
/// - the Foundation timer's block reaches the scheduler through a ``RunLoopTimerRelay`` that
///   disarming empties. swift-corelibs-foundation's block-based `Timer` retains itself for good
///   (`init(fire:interval:repeats:block:)` passes a retained reference to CoreFoundation and no
///   release callback), so the block, and whatever it holds, is never freed on Linux. The relay is
///   what is left of it: a few bytes, no scheduler, no run loop.
///
/// The scheduler calls ``arm(at:leeway:for:)`` outside its own lock, one call at a time, in the
/// order its state asked for them; the Foundation calls (and the release of a replaced timer and
/// its relay) run after `state`'s lock.
///
/// `@unchecked Sendable`: `state` is a lock; `runLoop` is a weak reference, loaded atomically and
/// only used through `add(_:forMode:)`; the Foundation timer is used only through `fireDate`,
/// `tolerance` and `invalidate()`, which lock inside CoreFoundation (probed on Linux: a fire date
/// moved or a timer added from another thread wakes a waiting run loop).
final class RunLoopTimerDriver: TimerDriver, @unchecked Sendable {
  struct State {
    /// The Foundation timer, made on the first arming; `nil` when disarmed.
    var timer: Timer?
    /// The Foundation timer's way to the scheduler; emptied when disarmed.
    var relay: RunLoopTimerRelay?
  }

  /// The run loop to add the Foundation timer to; `nil` once its thread has exited and it is gone.
  weak var runLoop: RunLoop?
  let mode: RunLoop.Mode
  let clock = ContinuousClock()
  let origin: ContinuousClock.Instant
  let state = Locked(State())

  init(runLoop: RunLoop, mode: RunLoop.Mode) {
    self.runLoop = runLoop
    self.mode = mode
    origin = clock.now
  }

  func now() -> Duration {
    origin.duration(to: clock.now)
  }

  func instant(at offset: Duration) -> any InstantProtocol<Duration> {
    origin.advanced(by: offset)
  }

  func arm(at deadline: Duration?, leeway: Duration, for scheduler: TimerScheduler) {
    guard let deadline else {
      let (timer, relay) = state.withLock { state in
        defer { state = State() }
        return (state.timer, state.relay)
      }
      timer?.invalidate()
      relay?.empty()
      return
    }
    let delay = deadline - now()
    let fireDate = Date(timeIntervalSinceNow: max(delay.seconds, 0))
    if let timer = state.withLock({ $0.timer }) {
      timer.tolerance = leeway.seconds
      timer.fireDate = fireDate
      return
    }
    // The thread of the run loop has exited: nothing would ever run the timer.
    guard let runLoop else { return }
    let relay = RunLoopTimerRelay(scheduler)
    let timer = Timer(fire: fireDate, interval: 1e9, repeats: true) { _ in relay.fire() }
    timer.tolerance = leeway.seconds
    state.withLock { $0 = State(timer: timer, relay: relay) }
    runLoop.add(timer, forMode: mode)
  }
}

/// What a Foundation timer's block holds instead of the scheduler itself: the scheduler while the
/// timer is armed, nothing once it is disarmed. While armed it keeps the scheduler (and so every
/// timer in its heap) alive, as a scheduled Foundation timer keeps its target.
///
/// `@unchecked Sendable`: its one stored property is a lock.
final class RunLoopTimerRelay: @unchecked Sendable {
  /// The scheduler to wake; `nil` once disarmed.
  /// Behind ClosureKit's `Locked` (a `pthread_mutex_t` on Linux), not `Synchronization.Mutex`,
  /// whose contended futex path ThreadSanitizer does not see as synchronisation (see `ManualClock`).
  private let scheduler: Locked<TimerScheduler?>

  init(_ scheduler: TimerScheduler) {
    self.scheduler = Locked(scheduler)
  }

  /// Fires the scheduler's due timers, unless disarmed.
  func fire() {
    scheduler.withLock { $0 }?.fireDue()
  }

  /// Drops the scheduler; later fires do nothing. Called by the scheduler's own arming, so this is
  /// never its last reference; the reference is released after this relay's lock.
  func empty() {
    let scheduler = scheduler.withLock { $0.take() }
    withExtendedLifetime(scheduler) {}
  }
}

extension Duration {
  /// The duration in seconds, as Foundation's `TimeInterval`.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
