/// When a ``ClosureTimer``'s calls fall due: once after a delay, or on a fixed beat.
///
/// ```swift
/// ClosureTimer.schedule(.after(.milliseconds(300))) { _ in print("debounced") }
/// ClosureTimer.schedule(.every(.seconds(1), repeatCount: 3)) { timer in print("tick", timer.fireCount) }
/// ```
///
/// A cadence is a plain value: build it once and pass it to several timers, or keep it in a
/// setting. It is checked when a timer is made from it.
///
/// > Important: A cadence is `Sendable` and immutable; making one has no effect until a timer is
/// > made from it. Bad values (a negative delay or tolerance, a zero interval, a `repeatCount`
/// > below 1) stop the program when the timer is made, with a message that names the argument.
public struct TimerCadence: Sendable, Hashable {
  /// The two cadences, as the timer reads them.
  enum Kind: Hashable {
    /// One call, `delay` after the start.
    case once(after: Duration)
    /// A call every `interval`, up to `repeatCount` calls (`nil`: no limit).
    case repeating(every: Duration, tolerance: Duration, repeatCount: Int?)
  }

  /// The cadence.
  let kind: Kind

  /// One call, `delay` after the timer starts; then the timer is invalid.
  ///
  /// ```swift
  /// let timeout = ClosureTimer.schedule(.after(.seconds(30))) { _ in print("timed out") }
  /// ```
  ///
  /// - Parameter delay: The time from the start to the call; zero or more.
  /// - Returns: A one-shot cadence.
  ///
  /// > Important: The timer is valid while its one call runs and invalid after it returns.
  public static func after(_ delay: Duration) -> TimerCadence {
    TimerCadence(kind: .once(after: delay))
  }

  /// A call every `interval` from the start, with no drift, until the timer is invalidated or has
  /// made `repeatCount` calls.
  ///
  /// ```swift
  /// let poll = ClosureTimer.schedule(.every(.seconds(5), tolerance: .milliseconds(500))) { _ in
  ///   print("poll")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; greater than zero.
  ///   - tolerance: How late a tick may run so that wake-ups can be shared; it never shifts later
  ///     ticks. Defaults to zero.
  ///   - repeatCount: The number of calls after which the timer invalidates itself; at least 1.
  ///     `nil` (the default) repeats until invalidated.
  /// - Returns: A repeating cadence.
  ///
  /// > Important: Tick *n* is due at start + *n* × `interval`, however long the handler takes;
  /// > missed ticks are coalesced into one call (``ClosureTimer/skippedTickCount``).
  public static func every(
    _ interval: Duration,
    tolerance: Duration = .zero,
    repeatCount: Int? = nil
  ) -> TimerCadence {
    TimerCadence(kind: .repeating(every: interval, tolerance: tolerance, repeatCount: repeatCount))
  }

  /// The delay or the interval.
  var period: Duration {
    switch kind {
    case .once(let delay): delay
    case .repeating(let interval, _, _): interval
    }
  }

  /// Whether the timer repeats.
  var isRepeating: Bool {
    if case .repeating = kind { return true }
    return false
  }

  /// How late the scheduler may wake up for a tick.
  var tolerance: Duration {
    if case .repeating(_, let tolerance, _) = kind { return tolerance }
    return .zero
  }

  /// The number of calls after which the timer ends; `nil`: no limit.
  var callLimit: Int? {
    switch kind {
    case .once: 1
    case .repeating(_, _, let repeatCount): repeatCount
    }
  }

  /// Stops the program with a message naming the bad argument, if the cadence has one.
  func validate() {
    switch kind {
    case .once(let delay):
      if delay < .zero {
        failPrecondition("TimerCadence.after(_:): the argument `delay` must not be negative, got \(delay)")
      }
    case .repeating(let interval, let tolerance, let repeatCount):
      let function = "TimerCadence.every(_:tolerance:repeatCount:)"
      if interval <= .zero {
        failPrecondition("\(function): the argument `interval` must be greater than zero, got \(interval)")
      }
      if tolerance < .zero {
        failPrecondition("\(function): the argument `tolerance` must not be negative, got \(tolerance)")
      }
      if let repeatCount, repeatCount < 1 {
        failPrecondition("\(function): the argument `repeatCount` must be at least 1, got \(repeatCount)")
      }
    }
  }
}
