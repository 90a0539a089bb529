public import ClosureKit
public import Foundation

extension ClosureTimer {
  /// Schedules a timer in a run loop, on Foundation's `Timer`: for code that runs a RunLoop and
  /// wants its handler on that run loop's thread, in a given mode. The semantics are those of the
  /// clock-driven `ClosureTimer.schedule(_:on:clock:_:)`: no drift, missed ticks coalesced into one
  /// call, a repeat count, pause and resume.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.after(.milliseconds(300)), in: .main, forMode: .common) { _ in
  ///   print("on the main thread's run loop")
  /// }
  /// let timer = ClosureTimer.schedule(.every(.seconds(1)), in: .main, forMode: .common) { timer in
  ///   print("tick", timer.fireCount)
  /// }
  /// RunLoop.main.run(until: Date(timeIntervalSinceNow: 3))
  /// ```
  ///
  /// - Parameters:
  ///   - cadence: When the calls fall due; a repeating cadence's tolerance is Foundation's
  ///     `Timer.tolerance`.
  ///   - runLoop: The run loop whose thread runs the handler: `.current`, `.main`, …
  ///   - mode: The run-loop mode in which the timer fires. Defaults to `.default`.
  ///   - handler: Receives the timer.
  /// - Returns: The running timer. Dropping it does not stop it; keep it to invalidate it.
  ///
  /// > Important: The handler runs on `runLoop`'s thread, only while it runs in `mode`. On Linux
  /// > no run loop runs by itself, not even the main thread's in an `async` `main`: prefer
  /// > `ClosureTimer.schedule(_:on:clock:_:)`, which needs none. Every method of the timer is safe
  /// > from any thread; after `ClosureTimer.invalidate()` returns no call starts.
  @discardableResult
  public static func schedule(
    _ cadence: TimerCadence,
    in runLoop: RunLoop,
    forMode mode: RunLoop.Mode = .default,
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    let scheduler = TimerScheduler(driver: RunLoopTimerDriver(runLoop: runLoop, mode: mode))
    let timer = ClosureTimer(cadence, scheduler: scheduler, delivery: .immediate, owner: nil, handler)
    timer.start()
    return timer
  }

  /// Deprecated: use `ClosureTimer.schedule(.after(delay), in:forMode:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.schedule(.after(delay), in:forMode:_:)")
  @discardableResult
  public static func schedule(
    after delay: Duration, in runLoop: RunLoop, forMode mode: RunLoop.Mode = .default,
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer { schedule(.after(delay), in: runLoop, forMode: mode, handler) }

  /// Deprecated: use `ClosureTimer.schedule(.every(interval, tolerance:repeatCount:), in:forMode:_:)`.
  @available(
    *, deprecated, message: "use ClosureTimer.schedule(.every(interval, tolerance:repeatCount:), in:forMode:_:)"
  )
  @discardableResult
  public static func schedule(
    every interval: Duration, tolerance: Duration = .zero, repeatCount: Int? = nil,
    in runLoop: RunLoop, forMode mode: RunLoop.Mode = .default, _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    schedule(.every(interval, tolerance: tolerance, repeatCount: repeatCount), in: runLoop, forMode: mode, handler)
  }
}
