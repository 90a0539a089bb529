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
  ) -> HandlerSubscription {
    observingKeyPaths(repeat each keyPaths, options: options, function: "observe(_:options:on:_:)")
      .addHandler(on: delivery) { field in handler(field.keyPath, field.change) }
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
  ) -> HandlerSubscription {
    observingKeyPaths(repeat each keyPaths, options: options, function: "observe(_:owner:options:on:_:)")
      .addHandler(owner: owner, on: delivery) { owner, field in handler(owner, field.keyPath, field.change) }
  }
}

extension Change where Value: Sendable {
  /// The same change with its values as `any Sendable`, for a handler of several key paths.
  var erased: Change<any Sendable> {
    Change<any Sendable>(oldValue: oldValue.map { $0 }, newValue: newValue.map { $0 }, isPrior: isPrior)
  }
}
