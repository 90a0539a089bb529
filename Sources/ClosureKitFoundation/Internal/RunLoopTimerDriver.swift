import ClosureKit
import Foundation
import Synchronization

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
/// `@unchecked Sendable`: `timer` is read and written under the scheduler's lock only; `runLoop`
/// is a weak reference, loaded atomically and only used through `add(_:forMode:)`; the Foundation
/// timer is used only through `fireDate`, `tolerance` and `invalidate()`, which lock inside
/// CoreFoundation (probed on Linux: a fire date moved or a timer added from another thread wakes a
/// waiting run loop).
final class RunLoopTimerDriver: TimerDriver, @unchecked Sendable {
  /// The run loop to add the Foundation timer to; `nil` once its thread has exited and it is gone.
  weak var runLoop: RunLoop?
  let mode: RunLoop.Mode
  let clock = ContinuousClock()
  let origin: ContinuousClock.Instant
  /// The Foundation timer, made on the first arming; `nil` when disarmed.
  var timer: Timer?
  /// The Foundation timer's way to the scheduler; emptied when disarmed.
  var relay: RunLoopTimerRelay?

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
      timer?.invalidate()
      timer = nil
      relay?.empty()
      relay = nil
      return
    }
    let delay = deadline - now()
    let fireDate = Date(timeIntervalSinceNow: max(delay.seconds, 0))
    if let timer {
      timer.tolerance = leeway.seconds
      timer.fireDate = fireDate
      return
    }
    // The thread of the run loop has exited: nothing would ever run the timer.
    guard let runLoop else { return }
    let relay = RunLoopTimerRelay(scheduler)
    let timer = Timer(fire: fireDate, interval: 1e9, repeats: true) { _ in relay.fire() }
    timer.tolerance = leeway.seconds
    self.timer = timer
    self.relay = relay
    runLoop.add(timer, forMode: mode)
  }
}

/// What a Foundation timer's block holds instead of the scheduler itself: the scheduler while the
/// timer is armed, nothing once it is disarmed. While armed it keeps the scheduler (and so every
/// timer in its heap) alive, as a scheduled Foundation timer keeps its target.
final class RunLoopTimerRelay: Sendable {
  /// The scheduler to wake; `nil` once disarmed.
  private let scheduler: Mutex<TimerScheduler?>

  init(_ scheduler: TimerScheduler) {
    self.scheduler = Mutex(scheduler)
  }

  /// Fires the scheduler's due timers, unless disarmed.
  func fire() {
    scheduler.withLock { $0 }?.fireDue()
  }

  /// Drops the scheduler; later fires do nothing. Called under the scheduler's lock by the
  /// scheduler itself, so this is never its last reference.
  func empty() {
    scheduler.withLock { $0 = nil }
  }
}

extension Duration {
  /// The duration in seconds, as Foundation's `TimeInterval`.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
