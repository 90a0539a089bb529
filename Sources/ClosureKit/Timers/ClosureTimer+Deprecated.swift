// The timer spellings replaced by `TimerCadence` and `ClosureTimer.onMainActor` (issue 27): each
// forwards to its replacement and keeps working for one release. Not for new code; no example uses
// them. The `MainActorDelivery` ones were chosen by writing `@MainActor` in the closure; the view
// needs no annotation.

extension ClosureTimer {
  // MARK: after / every, Delivery

  /// Deprecated: use `ClosureTimer(.after(delay), on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer(.after(delay), on:clock:_:)")
  public convenience init(
    after delay: Duration, on delivery: Delivery = .immediate, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) { self.init(.after(delay), on: delivery, clock: clock, handler) }

  /// Deprecated: use `ClosureTimer(.every(interval, tolerance:repeatCount:), on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer(.every(interval, tolerance:repeatCount:), on:clock:_:)")
  public convenience init(
    every interval: Duration, tolerance: Duration = .zero, repeatCount: Int? = nil,
    on delivery: Delivery = .immediate, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) { self.init(.every(interval, tolerance: tolerance, repeatCount: repeatCount), on: delivery, clock: clock, handler) }

  /// Deprecated: use `ClosureTimer.schedule(.after(delay), on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.schedule(.after(delay), on:clock:_:)")
  @discardableResult
  public static func schedule(
    after delay: Duration, on delivery: Delivery = .immediate, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer { schedule(.after(delay), on: delivery, clock: clock, handler) }

  /// Deprecated: use `ClosureTimer.schedule(.every(interval, tolerance:repeatCount:), on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.schedule(.every(interval, tolerance:repeatCount:), on:clock:_:)")
  @discardableResult
  public static func schedule(
    every interval: Duration, tolerance: Duration = .zero, repeatCount: Int? = nil,
    on delivery: Delivery = .immediate, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    schedule(.every(interval, tolerance: tolerance, repeatCount: repeatCount), on: delivery, clock: clock, handler)
  }

  // MARK: after / every, owner, Delivery

  /// Deprecated: use `ClosureTimer(.after(delay), owner:on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer(.after(delay), owner:on:clock:_:)")
  public convenience init<Owner: AnyObject & Sendable>(
    after delay: Duration, owner: Owner, on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(), _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) { self.init(.after(delay), owner: owner, on: delivery, clock: clock, handler) }

  /// Deprecated: use `ClosureTimer(.every(interval, tolerance:repeatCount:), owner:on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer(.every(interval, tolerance:repeatCount:), owner:on:clock:_:)")
  public convenience init<Owner: AnyObject & Sendable>(
    every interval: Duration, owner: Owner, tolerance: Duration = .zero, repeatCount: Int? = nil,
    on delivery: Delivery = .immediate, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) {
    let cadence = TimerCadence.every(interval, tolerance: tolerance, repeatCount: repeatCount)
    self.init(cadence, owner: owner, on: delivery, clock: clock, handler)
  }

  /// Deprecated: use `ClosureTimer.schedule(.after(delay), owner:on:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.schedule(.after(delay), owner:on:clock:_:)")
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    after delay: Duration, owner: Owner, on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(), _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer { schedule(.after(delay), owner: owner, on: delivery, clock: clock, handler) }

  /// Deprecated: use `ClosureTimer.schedule(.every(interval, tolerance:repeatCount:), owner:on:clock:_:)`.
  @available(
    *, deprecated, message: "use ClosureTimer.schedule(.every(interval, tolerance:repeatCount:), owner:on:clock:_:)"
  )
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    every interval: Duration, owner: Owner, tolerance: Duration = .zero, repeatCount: Int? = nil,
    on delivery: Delivery = .immediate, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    let cadence = TimerCadence.every(interval, tolerance: tolerance, repeatCount: repeatCount)
    return schedule(cadence, owner: owner, on: delivery, clock: clock, handler)
  }

  // MARK: MainActorDelivery

  /// Deprecated: use `ClosureTimer.onMainActor.schedule(.after(delay), clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.onMainActor.schedule(.after(delay), clock:_:)")
  @discardableResult
  public static func schedule(
    after delay: Duration, on delivery: MainActorDelivery, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer { onMainActor.schedule(.after(delay), clock: clock, handler) }

  /// Deprecated: use `ClosureTimer.onMainActor.schedule(.every(interval, tolerance:repeatCount:), clock:_:)`.
  @available(
    *, deprecated, message: "use ClosureTimer.onMainActor.schedule(.every(interval, tolerance:repeatCount:), clock:_:)"
  )
  @discardableResult
  public static func schedule(
    every interval: Duration, tolerance: Duration = .zero, repeatCount: Int? = nil, on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(), _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) -> ClosureTimer {
    onMainActor.schedule(.every(interval, tolerance: tolerance, repeatCount: repeatCount), clock: clock, handler)
  }

  /// Deprecated: use `ClosureTimer.onMainActor.schedule(.after(delay), owner:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.onMainActor.schedule(.after(delay), owner:clock:_:)")
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    after delay: Duration, owner: Owner, on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer { onMainActor.schedule(.after(delay), owner: owner, clock: clock, handler) }

  /// Deprecated: use `ClosureTimer.onMainActor.schedule(.every(interval, tolerance:repeatCount:), owner:clock:_:)`.
  @available(
    *, deprecated,
    message: "use ClosureTimer.onMainActor.schedule(.every(interval, tolerance:repeatCount:), owner:clock:_:)"
  )
  @discardableResult
  public static func schedule<Owner: AnyObject & Sendable>(
    every interval: Duration, owner: Owner, tolerance: Duration = .zero, repeatCount: Int? = nil,
    on delivery: MainActorDelivery, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) -> ClosureTimer {
    let cadence = TimerCadence.every(interval, tolerance: tolerance, repeatCount: repeatCount)
    return onMainActor.schedule(cadence, owner: owner, clock: clock, handler)
  }

  /// Deprecated: use `ClosureTimer.onMainActor.makeTimer(.after(delay), clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.onMainActor.makeTimer(.after(delay), clock:_:)")
  public convenience init(
    after delay: Duration, on delivery: MainActorDelivery, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) { self.init(.after(delay), on: .mainActor, clock: clock, MainActorView.isolated(handler)) }

  /// Deprecated: use `ClosureTimer.onMainActor.makeTimer(.every(interval, tolerance:repeatCount:), clock:_:)`.
  @available(
    *, deprecated, message: "use ClosureTimer.onMainActor.makeTimer(.every(interval, tolerance:repeatCount:), clock:_:)"
  )
  public convenience init(
    every interval: Duration, tolerance: Duration = .zero, repeatCount: Int? = nil, on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(), _ handler: @escaping @MainActor @Sendable (ClosureTimer) -> Void
  ) {
    let cadence = TimerCadence.every(interval, tolerance: tolerance, repeatCount: repeatCount)
    self.init(cadence, on: .mainActor, clock: clock, MainActorView.isolated(handler))
  }

  /// Deprecated: use `ClosureTimer.onMainActor.makeTimer(.after(delay), owner:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.onMainActor.makeTimer(.after(delay), owner:clock:_:)")
  public convenience init<Owner: AnyObject & Sendable>(
    after delay: Duration, owner: Owner, on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) { self.init(.after(delay), owner: owner, on: .mainActor, clock: clock, MainActorView.isolated(handler)) }

  /// Deprecated: use `ClosureTimer.onMainActor.makeTimer(.every(interval, tolerance:repeatCount:), owner:clock:_:)`.
  @available(
    *, deprecated,
    message: "use ClosureTimer.onMainActor.makeTimer(.every(interval, tolerance:repeatCount:), owner:clock:_:)"
  )
  public convenience init<Owner: AnyObject & Sendable>(
    every interval: Duration, owner: Owner, tolerance: Duration = .zero, repeatCount: Int? = nil,
    on delivery: MainActorDelivery, clock: some Clock<Duration> = ContinuousClock(),
    _ handler: @escaping @MainActor @Sendable (Owner, ClosureTimer) -> Void
  ) {
    let cadence = TimerCadence.every(interval, tolerance: tolerance, repeatCount: repeatCount)
    self.init(cadence, owner: owner, on: .mainActor, clock: clock, MainActorView.isolated(handler))
  }

  /// Deprecated: use `ClosureTimer.onMainActor.perform(after:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.onMainActor.perform(after:clock:_:)")
  @discardableResult
  public static func perform(
    after delay: Duration, on delivery: MainActorDelivery, clock: some Clock<Duration> = ContinuousClock(),
    _ body: @escaping @MainActor @Sendable () -> Void
  ) -> HandlerSubscription { onMainActor.perform(after: delay, clock: clock, body) }

  /// Deprecated: use `ClosureTimer.onMainActor.perform(after:owner:clock:_:)`.
  @available(*, deprecated, message: "use ClosureTimer.onMainActor.perform(after:owner:clock:_:)")
  @discardableResult
  public static func perform<Owner: AnyObject & Sendable>(
    after delay: Duration, owner: Owner, on delivery: MainActorDelivery,
    clock: some Clock<Duration> = ContinuousClock(), _ body: @escaping @MainActor @Sendable (Owner) -> Void
  ) -> HandlerSubscription { onMainActor.perform(after: delay, owner: owner, clock: clock, body) }
}
