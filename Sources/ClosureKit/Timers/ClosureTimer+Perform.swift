extension ClosureTimer {
  /// Runs `body` once, `delay` from now, unless the returned subscription is cancelled first:
  /// BlocksKit's cancellable delayed block.
  ///
  /// ```swift
  /// let save = ClosureTimer.perform(after: .seconds(2)) { store.save() }
  /// // the user typed again:
  /// save.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time until `body` runs; zero or more.
  ///   - delivery: Where `body` runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - body: The delayed work.
  /// - Returns: A token that cancels the work; dropping it does not. `isCancelled` is `true` once
  ///   the work has run or was cancelled.
  ///
  /// > Important: After `cancel()` returns, `body` does not start, also when its call was already
  /// > queued; `body` and its captures are released at once. For a `@MainActor` body use
  /// > ``ClosureTimer/MainActorView/perform(after:clock:_:)``.
  @discardableResult
  public static func perform(
    after delay: Duration,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ body: @escaping @Sendable () -> Void
  ) -> HandlerSubscription {
    let timer = ClosureTimer.schedule(.after(delay), on: delivery, clock: clock) { _ in body() }
    return HandlerSubscription(source: timer, node: nil)
  }
  /// Runs `body` once, `delay` from now, with `owner` passed in, unless the owner has been
  /// deallocated or the returned subscription is cancelled first: BlocksKit's
  /// `bk_performBlock:afterDelay:` on an object.
  ///
  /// ```swift
  /// final class Draft: Sendable {
  ///   func save() {}
  /// }
  /// let draft = Draft()
  /// let autosave = ClosureTimer.perform(after: .seconds(2), owner: draft) { draft in draft.save() }
  /// // the user typed again:
  /// autosave.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - delay: The time until `body` runs; zero or more.
  ///   - owner: Held weakly, and passed to `body` strong: `body` needs no `[weak self]`. Once it is
  ///     deallocated `body` never runs.
  ///   - delivery: Where `body` runs. Defaults to ``Delivery/immediate``.
  ///   - clock: The clock that measures the delay. Defaults to `ContinuousClock()`.
  ///   - body: The delayed work; receives the owner.
  /// - Returns: A token that cancels the work; dropping it does not. `isCancelled` is `true` once
  ///   the work has run, was cancelled, or its owner is gone.
  ///
  /// > Important: The timer never keeps the owner alive. After `cancel()` returns, `body` does not
  /// > start, also when its call was already queued; `body` and its captures are released at once,
  /// > or, when the owner dies first, at the deadline at the latest. For a `@MainActor` body use
  /// > ``ClosureTimer/MainActorView/perform(after:owner:clock:_:)``.
  @discardableResult
  public static func perform<Owner: AnyObject & Sendable>(
    after delay: Duration,
    owner: Owner,
    on delivery: Delivery = .immediate,
    clock: some Clock<Duration> = ContinuousClock(),
    _ body: @escaping @Sendable (Owner) -> Void
  ) -> HandlerSubscription {
    let timer = ClosureTimer.schedule(.after(delay), owner: owner, on: delivery, clock: clock) { owner, _ in
      body(owner)
    }
    return HandlerSubscription(source: timer, node: nil)
  }

  /// Stops the timer for good and releases its handler: the same as ``invalidate()``, so that a
  /// timer and the ``HandlerSubscription`` of ``perform(after:on:clock:_:)-(_,Delivery,_,_)`` are cancelled alike.
  ///
  /// ```swift
  /// let poll = ClosureTimer.schedule(.every(.seconds(5))) { _ in print("poll") }
  /// poll.cancel()   // the same as poll.invalidate()
  /// ```
  ///
  /// > Important: The same rules as ``invalidate()``: idempotent, safe from any thread and from
  /// > inside the handler; after it returns no call of the handler starts.
  public func cancel() {
    invalidate()
  }
}

extension ClosureTimer: SubscriptionSource {
  package func cancel(_ subscription: HandlerSubscription) {
    invalidate()
  }

  package func isCancelled(_ subscription: HandlerSubscription) -> Bool {
    !isValid
  }
}
