/// The timer's controls: start, invalidate, fire, pause and resume (split from ClosureTimer.swift
/// by role; the state they act on is declared there).
extension ClosureTimer {
  // MARK: Control

  /// Schedules a timer made with `init`: its first tick is due one interval (or the delay) from now.
  ///
  /// ```swift
  /// let timer = ClosureTimer(.every(.seconds(1))) { _ in print("tick") }
  /// timer.start()
  /// ```
  ///
  /// > Important: Does nothing on a timer that is already started, paused or invalid. Once started,
  /// > the scheduler holds the timer until it ends.
  public func start() {
    let now = scheduler.driver.now()
    scheduler.apply(scheduler.withState { $0.schedule(id, self, now: now) })
  }

  /// Stops the timer for good and releases its handler. Idempotent; safe from inside the handler.
  ///
  /// ```swift
  /// ClosureTimer.schedule(.every(.seconds(1))) { timer in
  ///   if done() { timer.invalidate() }
  /// }
  /// ```
  ///
  /// > Important: After this returns, no call of the handler starts, including calls already
  /// > queued on a `DispatchQueue`; a call already running on another thread may finish. What the
  /// > handler captured is released when no running call holds it any more.
  public func invalidate() {
    scheduler.apply(scheduler.withState { $0.invalidate(id) })
  }

  /// Whether the timer can still call its handler: not invalidated, not finished, owner alive.
  ///
  /// ```swift
  /// if !timer.isValid { timer = makeTimer() }
  /// ```
  ///
  /// A one-shot timer is valid while its handler runs and invalid after it returns.
  public var isValid: Bool {
    // Read before locking: the owner's last reference may be dropped while this read holds it,
    // and its deinit (which may invalidate this timer) must not run under the lock.
    guard !isOrphaned else { return false }
    return scheduler.withState { $0.records[id]!.phase != .invalid }
  }

  /// Runs the handler now, out of schedule. A one-shot timer is then invalid; a repeating one keeps
  /// its schedule (the call counts against its `repeatCount`).
  ///
  /// ```swift
  /// let refresh = ClosureTimer.schedule(.every(.seconds(60))) { _ in reload() }
  /// refresh.fire()   // reload now, and again every minute as before
  /// ```
  ///
  /// > Important: Runs through the timer's delivery: with ``Delivery/immediate`` synchronously on
  /// > the calling thread. Does nothing on an invalid timer, nor on one whose last call (of its
  /// > `repeatCount`) is already committed; a call it commits starts unless the timer is
  /// > invalidated first.
  public func fire() {
    // Read before locking, as in `isValid`.
    guard !isOrphaned else { return }
    guard let fired = scheduler.withState({ $0.fire(id) }) else { return }
    scheduler.apply(fired.released)
    delivery.execute(makeCall(skipped: 0, reportsEnd: fired.reportsEnd))
  }

  /// Stops the ticks until ``resume()``, keeping the timer's phase: on resume every later deadline
  /// moves by the time spent paused.
  ///
  /// ```swift
  /// timer.pause()
  /// // …
  /// timer.resume()
  /// ```
  ///
  /// > Important: Ticks that fall due while paused are neither called nor counted as skipped. A
  /// > call already queued on another delivery still runs. Does nothing unless the timer is
  /// > scheduled.
  public func pause() {
    let now = scheduler.driver.now()
    scheduler.apply(scheduler.withState { $0.pause(id, now: now) })
  }

  /// Restarts a paused timer; its next tick is due as late as the pause lasted.
  ///
  /// ```swift
  /// timer.resume()
  /// ```
  ///
  /// > Important: Does nothing unless the timer is paused.
  public func resume() {
    let now = scheduler.driver.now()
    scheduler.apply(scheduler.withState { $0.resume(id, self, now: now) })
  }
}
