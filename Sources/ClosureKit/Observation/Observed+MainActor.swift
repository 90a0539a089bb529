// The owner and `MainActorDelivery` overloads of `Observed.observe`, deprecated for one release:
// `observing(_:)` returns a `HandlerSource`, which has the owner variants and the main-actor view.

extension Observed {
  /// Deprecated: use `observing(options).addHandler(owner:on:_:)`.
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the handler ends when it is deallocated.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives the owner and each ``Change``.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// > Important: As ``observe(options:on:_:)-(_,Delivery,_)``; never called after the owner is gone.
  @available(*, deprecated, message: "use observing(options).addHandler(owner:on:) { ... }")
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Owner, Change<Value>) -> Void
  ) -> HandlerSubscription {
    observing(options).addHandler(owner: owner, on: delivery, handler)
  }

  /// Deprecated: use `observing(options).onMainActor.addHandler(_:)`.
  ///
  /// - Parameters:
  ///   - options: ``ObservationOptions``, as with a ``Delivery``.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - handler: Receives each change on the main actor.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/addHandler(file:line:_:)``.
  @available(*, deprecated, message: "use observing(options).onMainActor.addHandler { ... }")
  @discardableResult
  public func observe(
    options: ObservationOptions = [.new],
    on delivery: MainActorDelivery,
    _ handler: @escaping @MainActor @Sendable (Change<Value>) -> Void
  ) -> HandlerSubscription {
    observing(options).onMainActor.addHandler(handler)
  }

  /// Deprecated: use `observing(options).onMainActor.addHandler(owner:_:)`.
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the observation ends when it is deallocated.
  ///   - options: ``ObservationOptions``.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - handler: Receives the owner and each change on the main actor.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: As ``MainActorHandlerSource/addHandler(owner:file:line:_:)``.
  @available(*, deprecated, message: "use observing(options).onMainActor.addHandler(owner:) { ... }")
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: MainActorDelivery,
    _ handler: @escaping @MainActor @Sendable (Owner, Change<Value>) -> Void
  ) -> HandlerSubscription {
    observing(options).onMainActor.addHandler(owner: owner, handler)
  }
}
