import Dispatch
public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// Deprecated: use `observing(_:options:).addHandler(on:_:)` with several key paths.
  @available(*, deprecated, message: "use observing(_:options:).addHandler(on:_:)")
  @discardableResult
  public func observe<each Value: Sendable>(
    _ keyPaths: repeat any KeyPath<Self, each Value> & Sendable,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (_ keyPath: PartialKeyPath<Self>, _ change: Change<any Sendable>) -> Void
  ) -> Subscription {
    let hopQueue = delivery.isImmediate ? DispatchQueue(label: "ClosureKit.observe.hop") : nil
    var parts: [Subscription] = []
    for keyPath in repeat each keyPaths {
      parts.append(
        ObservableTracker(
          root: self, keyPath: keyPath, options: options, delivery: delivery, owner: nil,
          handler: { change in handler(keyPath, change.erased) }, hopQueue: hopQueue
        )
        .start()
      )
    }
    if parts.isEmpty {
      failPrecondition("observe(_:options:on:_:): the argument `keyPaths` is empty; pass at least one key path")
    }
    return SubscriptionGroup.subscription(for: parts)
  }

  /// Deprecated: use `observing(_:options:).addHandler(owner:on:_:)` with several key paths.
  @available(*, deprecated, message: "use observing(_:options:).addHandler(owner:on:_:)")
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, each Value: Sendable>(
    _ keyPaths: repeat any KeyPath<Self, each Value> & Sendable,
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler:
      @escaping @Sendable (
        _ owner: Owner, _ keyPath: PartialKeyPath<Self>, _ change: Change<any Sendable>
      ) -> Void
  ) -> Subscription {
    let hopQueue = delivery.isImmediate ? DispatchQueue(label: "ClosureKit.observe.hop") : nil
    var parts: [Subscription] = []
    for keyPath in repeat each keyPaths {
      let bound: @Sendable (Owner, Change<any Sendable>) -> Void = { owner, change in handler(owner, keyPath, change) }
      parts.append(
        ObservableTracker(
          root: self, keyPath: keyPath, options: options, delivery: delivery, owner: owner,
          handler: bindingOwner(owner) { owner, change in bound(owner, change.erased) }, hopQueue: hopQueue
        )
        .start()
      )
    }
    if parts.isEmpty {
      failPrecondition("observe(_:owner:options:on:_:): the argument `keyPaths` is empty; pass at least one key path")
    }
    return SubscriptionGroup.subscription(for: parts)
  }
}

extension Change where Value: Sendable {
  /// The same change with its values as `any Sendable`, for a handler of several key paths.
  var erased: Change<any Sendable> {
    Change<any Sendable>(oldValue: oldValue.map { $0 }, newValue: newValue.map { $0 }, isPrior: isPrior)
  }
}
