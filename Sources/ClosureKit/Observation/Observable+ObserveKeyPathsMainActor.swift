public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// Deprecated: use `observing(_:options:).onMainActor.addHandler(_:)` with several key paths.
  @available(*, deprecated, message: "use observing(_:options:).onMainActor.addHandler(_:)")
  @MainActor @discardableResult
  public func observe<each Value: Sendable>(
    _ keyPaths: repeat KeyPath<Self, each Value>,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping (_ keyPath: PartialKeyPath<Self>, _ change: Change<any Sendable>) -> Void
  ) -> HandlerSubscription {
    let handler = MainActorHandler(handler)
    // Immediate delivery of a main-actor observation, and `.mainActor`, run on the main actor.
    return mainActorObservingKeyPaths(repeat each keyPaths, options: options, function: "observe(_:options:on:_:)")
      .addHandler(on: delivery) { field in MainActor.assumeIsolated { handler.value(field.keyPath, field.change) } }
  }

  /// Deprecated: use `observing(_:options:).onMainActor.addHandler(owner:_:)` with several key paths.
  @available(*, deprecated, message: "use observing(_:options:).onMainActor.addHandler(owner:_:)")
  @MainActor @discardableResult
  public func observe<Owner: AnyObject & Sendable, each Value: Sendable>(
    _ keyPaths: repeat KeyPath<Self, each Value>,
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping (_ owner: Owner, _ keyPath: PartialKeyPath<Self>, _ change: Change<any Sendable>) -> Void
  ) -> HandlerSubscription {
    let handler = MainActorHandler(handler)
    return mainActorObservingKeyPaths(
      repeat each keyPaths, options: options, function: "observe(_:owner:options:on:_:)"
    )
    .addHandler(owner: owner, on: delivery) { owner, field in
      MainActor.assumeIsolated { handler.value(owner, field.keyPath, field.change) }
    }
  }

  /// Stops the program unless `delivery` runs handlers on the main actor.
  @MainActor
  static func checkOnMainActor(_ delivery: Delivery, function: StaticString) {
    switch delivery.kind {
    case .immediate, .mainActor: return
    case .queue, .custom:
      failPrecondition(
        "\(function): the argument `delivery` must be .immediate or .mainActor: the handler of a main-actor model's several key paths runs on the main actor"
      )
    }
  }
}

/// A value that is not `Sendable` (the user's main-actor handler, a key path to a main-actor
/// property), carried into a tracker's `@Sendable` handler.
///
/// `@unchecked Sendable`: the value is read only inside `MainActor.assumeIsolated`, on the main
/// actor, where it was created (the registration is `@MainActor`): it never crosses a thread.
final class MainActorHandler<Value>: @unchecked Sendable {
  /// The value; read on the main actor only.
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
