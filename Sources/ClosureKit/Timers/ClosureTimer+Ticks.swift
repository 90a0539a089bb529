/// The calls of a timer as its scheduler runs them (split from ClosureTimer.swift by role: this is
/// the part the scheduler drives; ClosureTimer.swift is the API, ClosureTimer+Control.swift the
/// controls). The state they change is the timer's record in ``TimerSchedulerState``.
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

  /// One committed call on a deferred delivery: starts at its start if the timer is still valid
  /// (else is skipped), and reports its end if the timer has a call limit.
  func makeCall(skipped: Int, reportsEnd: Bool) -> @Sendable () -> Void {
    { [self] in
      let body = scheduler.withState { $0.startCall(id, skipped: skipped) }
      body?(self)
      if reportsEnd { finishCall() }
    }
  }

  /// Reports that a committed call of a limited timer returned or was skipped: the last one of a
  /// finishing timer ends it.
  func finishCall() {
    let released = scheduler.withState { $0.finishCall(id) }
    withExtendedLifetime(released) {}  // released after the lock
  }
}
