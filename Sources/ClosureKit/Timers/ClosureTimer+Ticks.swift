/// The timer's transitions under its scheduler's lock: what a due tick, an end and a deferred call
/// do to the state declared in ClosureTimer.swift (split from it by role: this is the part the
/// scheduler drives; ClosureTimer.swift is the API, ClosureTimer+Control.swift the controls).
///
/// Lock rule: every `var` of a ``ClosureTimer`` is guarded by `scheduler.state`'s lock, not by a
/// lock of the timer's own, so that a timer's state and its place in the heap change together.
/// Functions here that say "under the lock" check it in debug builds with
/// ``TimerScheduler/assertLocked()``.
extension ClosureTimer {
  /// Binds `handler` to `owner`, held weakly: the bound handler invalidates the timer instead of
  /// running once the owner is gone.
  static func bind<Owner: AnyObject & Sendable>(
    _ owner: Owner,
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> @Sendable (ClosureTimer) -> Void {
    { [weak owner] timer in
      guard let owner else {
        timer.invalidate()
        return
      }
      handler(owner, timer)
    }
  }

  /// Starts the timer and returns it: the tail of every `schedule`.
  func started() -> ClosureTimer {
    start()
    return self
  }

  /// Whether the timer is owner-bound and its owner is gone.
  ///
  /// > Important: Not under the scheduler's lock: the weak load holds the owner for a moment, and
  /// > if another thread drops its last reference meanwhile, the owner's deinit runs here.
  var isOrphaned: Bool {
    isOwnerBound && owner == nil
  }

  /// Marks the timer invalid and returns its handler, to be released after the lock is dropped.
  /// Under the lock; the timer is already out of the heap.
  func end() -> (@Sendable (ClosureTimer) -> Void)? {
    scheduler.assertLocked()
    phase = .invalid
    defer { handler = nil }
    return handler
  }

  /// Handles a due tick at `now`: coalesces missed ticks, reschedules or finishes the timer, and
  /// returns the call. Under the lock; the timer has just been popped from the heap.
  func tick(at now: Duration, state: inout TimerScheduler.State) -> TimerScheduler.DueCall {
    scheduler.assertLocked()
    var skipped = 0
    if isRepeating {
      let next = deadline + period
      if now < next {
        // On time (the common case): no division needed.
        nextTick += 1
        deadline = next
      } else {
        let due = Int64((now - anchor).attoseconds / period.attoseconds)
        skipped = Int(due - nextTick)
        nextTick = due + 1
        deadline = Duration(attoseconds: anchor.attoseconds + period.attoseconds * Int128(nextTick))
      }
    }
    committedCalls += 1
    let isFinal = !isRepeating || callLimit.map { committedCalls >= $0 } ?? false
    if isFinal {
      phase = .finishing
    } else {
      scheduler.insert(self, state: &state)
    }
    if delivery.isImmediate, let handler {
      startedCalls += 1
      skippedTicks = skipped
      return .immediate(self, handler, isFinal: isFinal)
    }
    return .deferred(self, makeCall(skipped: skipped, isFinal: isFinal))
  }

  /// One call of the handler: checks at its start that the timer is still valid.
  func makeCall(skipped: Int, isFinal: Bool) -> @Sendable () -> Void {
    { [self] in
      let body = scheduler.withLock { _ -> (@Sendable (ClosureTimer) -> Void)? in
        guard phase != .invalid, let handler = self.handler else { return nil }
        startedCalls += 1
        skippedTicks = skipped
        return handler
      }
      guard let body else { return }
      body(self)
      if isFinal { invalidate() }
    }
  }
}
