extension ClosureTimer {
  /// The main-actor view of the timer API: the same calls, with handlers that are `@MainActor`.
  ///
  /// ```swift
  /// @MainActor final class Toast {
  ///   var isHidden = false
  ///   func show() {
  ///     isHidden = false
  ///     ClosureTimer.onMainActor.perform(after: .seconds(3)) { self.isHidden = true }
  ///   }
  /// }
  /// ```
  ///
  /// A closure passed to the view is inferred `@MainActor`: it may touch the screen without
  /// `Task {}`, `MainActor.run` or `assumeIsolated`, and no annotation is needed to choose it.
  ///
  /// > Important: Calls are delivered as with ``Delivery/mainActor``: always asynchronously, in
  /// > order, and not at all once the timer is invalidated or the token cancelled, even if already
  /// > enqueued. On Linux the main actor's jobs run only while the main thread serves them (an
  /// > `async` `main`, `dispatchMain()` or a running RunLoop). The view's methods may be called
  /// > from any thread.
  ///
  /// If the compiler rejects a handler, see <doc:CommonCompilerErrors>.
  public static var onMainActor: MainActorView { MainActorView() }

  /// The timer API with `@MainActor` handlers; reached through ``ClosureTimer/onMainActor``.
  ///
  /// ```swift
  /// let clock = ClosureTimer.onMainActor.schedule(.every(.seconds(1))) { _ in clockLabel.text = now() }
  /// ```
  ///
  /// > Important: Every handler runs on the main actor, asynchronously (``Delivery/mainActor``).
  public struct MainActorView: Sendable {
    /// Schedules a timer whose handler runs on the main actor.
    ///
    /// ```swift
    /// ClosureTimer.onMainActor.schedule(.every(.seconds(1))) { timer in
    ///   clockLabel.text = now()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - cadence: When the calls fall due.
    ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
    ///   - handler: Receives the timer, on the main actor.
    /// - Returns: The running timer. Dropping it does not stop it.
    ///
    /// > Important: Delivered as with ``Delivery/mainActor``: asynchronously, and not at all once
    /// > the timer is invalidated, even if already enqueued.
    @discardableResult
    public func schedule(
      _ cadence: TimerCadence,
      clock: some Clock<Duration> = ContinuousClock(),
      _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
    ) -> ClosureTimer {
      ClosureTimer.schedule(cadence, on: .mainActor, clock: clock, Self.isolated(handler))
    }

    /// Schedules a timer bound to `owner` whose handler runs on the main actor.
    ///
    /// ```swift
    /// ClosureTimer.onMainActor.schedule(.after(.seconds(2)), owner: self) { screen, _ in
    ///   screen.hideToast()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - cadence: When the calls fall due.
    ///   - owner: Held weakly, and passed to the handler strong; the timer stops when it is
    ///     deallocated.
    ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
    ///   - handler: Receives the owner and the timer, on the main actor.
    /// - Returns: The running timer. Dropping it does not stop it.
    ///
    /// > Important: Delivered as with ``Delivery/mainActor``. The timer never keeps the owner
    /// > alive; once the owner is gone the handler never runs.
    @discardableResult
    public func schedule<Owner: AnyObject & Sendable>(
      _ cadence: TimerCadence, owner: Owner,
      clock: some Clock<Duration> = ContinuousClock(),
      _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
    ) -> ClosureTimer {
      ClosureTimer.schedule(cadence, owner: owner, on: .mainActor, clock: clock, Self.isolated(handler))
    }

    /// Creates a stopped timer whose handler runs on the main actor once ``ClosureTimer/start()``
    /// is called.
    ///
    /// ```swift
    /// let hide = ClosureTimer.onMainActor.makeTimer(.after(.seconds(2))) { _ in toast.isHidden = true }
    /// hide.start()
    /// ```
    ///
    /// - Parameters:
    ///   - cadence: When the calls fall due, counted from ``ClosureTimer/start()``.
    ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
    ///   - handler: Receives the timer, on the main actor.
    /// - Returns: The stopped timer.
    ///
    /// > Important: Nothing runs until ``ClosureTimer/start()``; then as ``schedule(_:clock:_:)``.
    public func makeTimer(
      _ cadence: TimerCadence,
      clock: some Clock<Duration> = ContinuousClock(),
      _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
    ) -> ClosureTimer {
      ClosureTimer(cadence, on: .mainActor, clock: clock, Self.isolated(handler))
    }

    /// Creates a stopped timer bound to `owner` whose handler runs on the main actor once
    /// ``ClosureTimer/start()`` is called.
    ///
    /// ```swift
    /// let ticking = ClosureTimer.onMainActor.makeTimer(.every(.seconds(1)), owner: self) { screen, _ in
    ///   screen.refreshClock()
    /// }
    /// ticking.start()
    /// ```
    ///
    /// - Parameters:
    ///   - cadence: When the calls fall due, counted from ``ClosureTimer/start()``.
    ///   - owner: Held weakly and passed to the handler strong; the timer stops when it is
    ///     deallocated.
    ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`.
    ///   - handler: Receives the owner and the timer, on the main actor.
    /// - Returns: The stopped timer.
    ///
    /// > Important: Nothing runs until ``ClosureTimer/start()``; then as
    /// > ``schedule(_:owner:clock:_:)``.
    public func makeTimer<Owner: AnyObject & Sendable>(
      _ cadence: TimerCadence, owner: Owner,
      clock: some Clock<Duration> = ContinuousClock(),
      _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
    ) -> ClosureTimer {
      ClosureTimer(cadence, owner: owner, on: .mainActor, clock: clock, Self.isolated(handler))
    }

    /// Runs `body` once on the main actor, `delay` from now, unless the returned subscription is
    /// cancelled first.
    ///
    /// ```swift
    /// let hide = ClosureTimer.onMainActor.perform(after: .seconds(3)) { toast.isHidden = true }
    /// hide.cancel()   // the user tapped the toast
    /// ```
    ///
    /// - Parameters:
    ///   - delay: The time until `body` runs; zero or more.
    ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
    ///   - body: The delayed work, on the main actor.
    /// - Returns: A token that cancels the work; dropping it does not. `isCancelled` is `true` once
    ///   the work has run or was cancelled.
    ///
    /// > Important: Delivered as with ``Delivery/mainActor``: asynchronously, and not at all once
    /// > the token is cancelled, even if already enqueued; `body` and its captures are released at
    /// > once.
    @discardableResult
    public func perform(
      after delay: Duration,
      clock: some Clock<Duration> = ContinuousClock(),
      _ body: @escaping @MainActor @Sendable () -> Void
    ) -> HandlerSubscription {
      ClosureTimer.perform(after: delay, on: .mainActor, clock: clock) { MainActor.assumeIsolated { body() } }
    }

    /// Runs `body` once on the main actor, `delay` from now, with `owner` passed in, unless the
    /// owner has been deallocated or the returned subscription is cancelled first.
    ///
    /// ```swift
    /// ClosureTimer.onMainActor.perform(after: .seconds(3), owner: self) { screen in screen.hideToast() }
    /// ```
    ///
    /// - Parameters:
    ///   - delay: The time until `body` runs; zero or more.
    ///   - owner: Held weakly and passed to `body` strong; once it is deallocated `body` never runs.
    ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
    ///   - body: The delayed work, on the main actor; receives the owner.
    /// - Returns: A token that cancels the work; dropping it does not.
    ///
    /// > Important: Delivered as with ``Delivery/mainActor``. The timer never keeps the owner
    /// > alive.
    @discardableResult
    public func perform<Owner: AnyObject & Sendable>(
      after delay: Duration,
      owner: Owner,
      clock: some Clock<Duration> = ContinuousClock(),
      _ body: @escaping @MainActor @Sendable (Owner) -> Void
    ) -> HandlerSubscription {
      ClosureTimer.perform(after: delay, owner: owner, on: .mainActor, clock: clock) { owner in
        MainActor.assumeIsolated { body(owner) }
      }
    }

    /// Adapts a main-actor handler for ``Delivery/mainActor``, which runs it on the main actor.
    static func isolated(
      _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
    ) -> @Sendable (ClosureTimer) -> Void {
      { timer in MainActor.assumeIsolated { handler(timer) } }
    }

    /// Adapts a main-actor owner handler for ``Delivery/mainActor``.
    static func isolated<Owner: AnyObject & Sendable>(
      _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
    ) -> @Sendable (Owner, ClosureTimer) -> Void {
      { owner, timer in MainActor.assumeIsolated { handler(owner, timer) } }
    }
  }
}
