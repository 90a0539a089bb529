public import ClosureKit
public import Foundation

extension ClosureTimer {
  /// Schedules a one-shot timer in a run loop, on Foundation's `Timer`: for code that runs a
  /// RunLoop and wants its handler on that run loop's thread, in a given mode.
  ///
  /// ```swift
  /// ClosureTimer.schedule(after: .milliseconds(300), in: .main, forMode: .common) { _ in
  ///   print("on the main thread's run loop")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time until the call; zero or more.
  ///   - runLoop: The run loop whose thread runs the handler: `.current`, `.main`, …
  ///   - mode: The run-loop mode in which the timer fires. Defaults to `.default`.
  ///   - handler: Receives the timer.
  /// - Returns: The running timer. Dropping it does not stop it; keep it to invalidate it.
  ///
  /// > Important: The handler runs only while `runLoop` runs in `mode`. On Linux no run loop runs
  /// > by itself, not even the main thread's in an `async` `main`: prefer
  /// > `ClosureTimer.schedule(after:on:clock:_:)`, which needs none. Every method of the timer
  /// > is safe from any thread; after `ClosureTimer.invalidate()` returns no call starts.
  @discardableResult
  public static func schedule(
    after delay: Duration,
    in runLoop: RunLoop,
    forMode mode: RunLoop.Mode = .default,
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    let timer = ClosureTimer(
      scheduler: TimerScheduler(driver: RunLoopTimerDriver(runLoop: runLoop, mode: mode)),
      period: delay,
      isRepeating: false,
      tolerance: .zero,
      repeatCount: 1,
      delivery: .immediate,
      owner: nil,
      handler: handler
    )
    timer.start()
    return timer
  }

  /// Schedules a repeating timer in a run loop, on Foundation's `Timer`, with the same semantics
  /// as `ClosureTimer.schedule(every:tolerance:repeatCount:on:clock:_:)`: no drift, missed
  /// ticks coalesced into one call, a repeat count, pause and resume.
  ///
  /// ```swift
  /// let timer = ClosureTimer.schedule(every: .seconds(1), in: .main, forMode: .common) { timer in
  ///   print("tick", timer.fireCount)
  /// }
  /// RunLoop.main.run(until: Date(timeIntervalSinceNow: 3))
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - tolerance: How late a tick may run (Foundation's `Timer.tolerance`). Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  ///   - runLoop: The run loop whose thread runs the handler: `.current`, `.main`, …
  ///   - mode: The run-loop mode in which the timer fires. Defaults to `.default`.
  ///   - handler: Receives the timer.
  /// - Returns: The running timer. Dropping it does not stop it; keep it to invalidate it.
  ///
  /// > Important: The handler runs on `runLoop`'s thread, only while it runs in `mode`. On Linux
  /// > no run loop runs by itself: prefer the clock-driven
  /// > `ClosureTimer.schedule(every:tolerance:repeatCount:on:clock:_:)`.
  @discardableResult
  public static func schedule(
    every interval: Duration,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil,
    in runLoop: RunLoop,
    forMode mode: RunLoop.Mode = .default,
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    let timer = ClosureTimer(
      scheduler: TimerScheduler(driver: RunLoopTimerDriver(runLoop: runLoop, mode: mode)),
      period: interval,
      isRepeating: true,
      tolerance: tolerance,
      repeatCount: repeatCount,
      delivery: .immediate,
      owner: nil,
      handler: handler
    )
    timer.start()
    return timer
  }
}
