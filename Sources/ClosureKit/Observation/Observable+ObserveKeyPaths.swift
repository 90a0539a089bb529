import Dispatch
public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// Observes several key paths of an `@Observable` object with one handler, told which key path
  /// changed (BlocksKit's `bk_addObserverForKeyPaths:task:`).
  ///
  /// ```swift
  /// @Observable final class Track: @unchecked Sendable {   // owned by one queue
  ///   var title = ""
  ///   var rating = 0
  /// }
  /// let track = Track()
  /// track.observe(\.title, \.rating, on: .queue(orderQueue)) { keyPath, change in
  ///   if keyPath == \Track.rating { print("rating", change.newValue as? Int ?? 0) }
  ///   else { print("title", change.newValue as? String ?? "") }
  /// }
  /// ```
  ///
  /// Each key path is observed as by the one-key-path `observe(_:options:on:_:)` (continuously, following
  /// replaced intermediate objects, coalescing writes until the hop), and all of them share one
  /// token.
  ///
  /// - Parameters:
  ///   - keyPaths: One or more values to watch, of any `Sendable` types.
  ///   - options: What to report for each; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives the key path that changed, as a `PartialKeyPath<Self>`, and its change;
  ///     cast its values to the key path's type (`change.newValue as? Int`).
  /// - Returns: One token for every key path: cancelling it ends every observation; dropping it
  ///   does not. `isCancelled` is `true` once it is cancelled or the object is deallocated.
  ///
  /// > Important: The rules of the one-key-path `observe(_:options:on:_:)`, for each key path. The post
  /// > callbacks of different key paths never overlap: with ``Delivery/immediate`` they share one
  /// > serial hop queue (or the main queue, for writes made there); with a queue or the main
  /// > actor, they run there. One write that changes two key paths gives two calls, in no order
  /// > promised. The initial callbacks (``ObservationOptions/initial``) run in key-path order
  /// > before this returns. Prior callbacks run on the writing thread, as in the one-key-path form.
  /// > No key path stops the program with a message naming the argument.
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

  /// Observes several key paths of an `@Observable` object with one handler bound to `owner`:
  /// the observation ends when `owner` is deallocated, and the handler receives it strong.
  ///
  /// ```swift
  /// model.observe(\.title, \.count, owner: screen, on: .mainActor) { screen, keyPath, change in
  ///   screen.show(change.newValue ?? "")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPaths: One or more values to watch.
  ///   - owner: Held weakly; every observation ends when it is deallocated.
  ///   - options: What to report for each; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives the owner, the key path that changed and its change.
  /// - Returns: One token for every key path; dropping it does not end the observations.
  ///
  /// > Important: The same rules as the several-key-path `observe(_:options:on:_:)`. Once the owner is
  /// > gone the handler is never called again and is released at the next change.
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
