import ClosureKit
import Foundation

/// Wakes the scheduler of one RunLoop-scheduled ``ClosureTimer`` with one Foundation `Timer` in
/// that run loop and mode: the timer's handler runs on the run loop's thread, and only while the
/// run loop runs in that mode.
///
/// The Foundation timer repeats with a huge interval so that it stays valid after it fires; each
/// arming moves its `fireDate` to the next deadline.
///
/// `@unchecked Sendable`: `timer` is read and written under the scheduler's lock only; `RunLoop`
/// and the Foundation timer are used only through `add(_:forMode:)`, `fireDate` and
/// `invalidate()`, which lock inside CoreFoundation (probed on Linux: a fire date moved or a timer
/// added from another thread wakes a waiting run loop).
final class RunLoopTimerDriver: TimerDriver, @unchecked Sendable {
  let runLoop: RunLoop
  let mode: RunLoop.Mode
  let clock = ContinuousClock()
  let origin: ContinuousClock.Instant
  /// The Foundation timer, made on the first arming; `nil` when disarmed.
  var timer: Timer?

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
      return
    }
    let delay = deadline - now()
    let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
    let fireDate = Date(timeIntervalSinceNow: max(seconds, 0))
    if let timer {
      timer.tolerance = Double(leeway.components.seconds) + Double(leeway.components.attoseconds) / 1e18
      timer.fireDate = fireDate
      return
    }
    let timer = Timer(fire: fireDate, interval: 1e9, repeats: true) { _ in scheduler.fireDue() }
    timer.tolerance = Double(leeway.components.seconds) + Double(leeway.components.attoseconds) / 1e18
    self.timer = timer
    runLoop.add(timer, forMode: mode)
  }
}
