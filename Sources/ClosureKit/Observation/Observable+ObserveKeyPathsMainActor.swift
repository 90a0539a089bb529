public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// Observes several key paths of a `@MainActor` `@Observable` object with one handler, told
  /// which key path changed, on the main actor.
  ///
  /// ```swift
  /// @MainActor @Observable final class Player {
  ///   var title = ""
  ///   var progress = 0.0
  /// }
  /// let player = Player()
  /// player.observe(\.title, \.progress) { keyPath, change in
  ///   print(keyPath == \Player.title ? "title" : "progress", change.newValue!)
  /// }
  /// ```
  ///
  /// Key paths to main-actor-isolated properties are not `Sendable`, so this overload is chosen for
  /// them; the call site is spelled as for a `Sendable` model. The handler is not `@Sendable`: it
  /// keeps the isolation of the main-actor code that registers it, so it may form key paths to
  /// the model's properties (to compare them with the one reported) and call main-actor code.
  ///
  /// - Parameters:
  ///   - keyPaths: One or more values to watch, of any `Sendable` types.
  ///   - options: What to report for each; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: ``Delivery/immediate`` (the default) or ``Delivery/mainActor``: the handler runs
  ///     on the main actor either way, synchronously in the observation's cycle or enqueued.
  ///   - handler: Receives the key path that changed, as a `PartialKeyPath<Self>`, and its change,
  ///     on the main actor.
  /// - Returns: One token for every key path: cancelling it ends every observation; dropping it
  ///   does not.
  ///
  /// > Important: Call it on the main actor. Each key path is observed as by the main-actor
  /// > one-key-path `observe(_:options:on:_:)`: read, armed and re-read on the main actor, and
  /// > every call of the handler runs there, one at a time (the initial ones, in key-path order,
  /// > before this returns). No key path, or a delivery off the main actor (a queue, a scheduler),
  /// > stops the program with a message naming the argument.
  @available(*, deprecated, message: "use observing(_:options:).onMainActor.addHandler(_:)")
  @MainActor @discardableResult
  public func observe<each Value: Sendable>(
    _ keyPaths: repeat KeyPath<Self, each Value>,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping (_ keyPath: PartialKeyPath<Self>, _ change: Change<any Sendable>) -> Void
  ) -> Subscription {
    Self.checkOnMainActor(delivery, function: "observe(_:options:on:_:)")
    let handler = MainActorHandler(handler)
    var parts: [Subscription] = []
    for keyPath in repeat each keyPaths {
      let reported = MainActorHandler<PartialKeyPath<Self>>(keyPath)
      parts.append(
        MainActorObservableTracker(
          root: self, keyPath: keyPath, options: options, delivery: delivery, owner: nil,
          handler: { change in
            // Immediate delivery of a main-actor observation, and `.mainActor`, run on the main actor.
            MainActor.assumeIsolated { handler.value(reported.value, change.erased) }
          }
        )
        .start()
      )
    }
    if parts.isEmpty {
      failPrecondition("observe(_:options:on:_:): the argument `keyPaths` is empty; pass at least one key path")
    }
    return SubscriptionGroup.subscription(for: parts)
  }

  /// Observes several key paths of a `@MainActor` `@Observable` object with one handler bound to
  /// `owner`, on the main actor.
  ///
  /// ```swift
  /// counter.observe(\.count, owner: screen) { screen, keyPath, change in
  ///   screen.show(change.newValue!)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPaths: One or more values to watch.
  ///   - owner: Held weakly; every observation ends when it is deallocated.
  ///   - options: What to report for each; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: ``Delivery/immediate`` (the default) or ``Delivery/mainActor``.
  ///   - handler: Receives the owner, the key path that changed and its change, on the main actor.
  /// - Returns: One token for every key path; dropping it does not end the observations.
  ///
  /// > Important: Call it on the main actor; the same rules as the main-actor several-key-path
  /// > `observe(_:options:on:_:)`. Once the owner is gone the handler is never called again.
  @available(*, deprecated, message: "use observing(_:options:).onMainActor.addHandler(owner:_:)")
  @MainActor @discardableResult
  public func observe<Owner: AnyObject & Sendable, each Value: Sendable>(
    _ keyPaths: repeat KeyPath<Self, each Value>,
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping (_ owner: Owner, _ keyPath: PartialKeyPath<Self>, _ change: Change<any Sendable>) -> Void
  ) -> Subscription {
    Self.checkOnMainActor(delivery, function: "observe(_:owner:options:on:_:)")
    let handler = MainActorHandler(handler)
    var parts: [Subscription] = []
    for keyPath in repeat each keyPaths {
      let reported = MainActorHandler<PartialKeyPath<Self>>(keyPath)
      parts.append(
        MainActorObservableTracker(
          root: self, keyPath: keyPath, options: options, delivery: delivery, owner: owner,
          handler: bindingOwner(owner) { owner, change in
            MainActor.assumeIsolated { handler.value(owner, reported.value, change.erased) }
          }
        )
        .start()
      )
    }
    if parts.isEmpty {
      failPrecondition("observe(_:owner:options:on:_:): the argument `keyPaths` is empty; pass at least one key path")
    }
    return SubscriptionGroup.subscription(for: parts)
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
