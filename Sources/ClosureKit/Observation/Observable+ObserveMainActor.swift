public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// Observes a key path of a `@MainActor` `@Observable` object continuously, from the main actor,
  /// with Key-Value Observing's options.
  ///
  /// ```swift
  /// @MainActor @Observable final class Counter {
  ///   var count = 0
  /// }
  /// let counter = Counter()
  /// counter.observe(\.count, options: [.old, .new]) { change in
  ///   print(change.oldValue!, "->", change.newValue!)
  /// }
  /// ```
  ///
  /// Key paths to main-actor-isolated properties are not `Sendable`, so this overload is chosen for
  /// them (and for any key path that is not `Sendable`); a `Sendable` key path of a `Sendable`
  /// model goes to the nonisolated overload as before. The call site is spelled the same.
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch; every `@Observable` property read along it is tracked.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``: on the main actor.
  ///   - handler: Receives each ``Change``.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: Call it on the main actor. The key path is read, the observation is armed and
  /// > the post-change hop runs only on the main actor; the key path never leaves it. With
  /// > ``Delivery/immediate`` the handler runs on the main actor: the prior callback in the willSet
  /// > of the first write of a cycle, the post callback after a hop enqueued on the main queue
  /// > behind the writing job, so the writes of one main-actor job are coalesced into one post
  /// > callback carrying the last value. Other deliveries receive the change read on the main
  /// > actor. The observation ends when the object is deallocated, when the token is cancelled, or
  /// > (owner variant) when the owner is deallocated; the object is never retained. See the article
  /// > <doc:Observation>.
  @MainActor @inlinable @discardableResult
  public func observe<Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> HandlerSubscription {
    observing(keyPath, options: options).addHandler(on: delivery, handler)
  }

  /// Deprecated: use `observing(keyPath, options: options).addHandler(owner:on:_:)`.
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch.
  ///   - owner: Held weakly; the observation ends when it is deallocated.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives the owner and each ``Change``.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: The rules of the main-actor `observe(_:options:on:_:)`; never called after the owner is gone.
  @MainActor @available(*, deprecated, message: "use observing(_:options:).addHandler(owner:on:) { ... }")
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Owner, Change<Value>) -> Void
  ) -> HandlerSubscription {
    observing(keyPath, options: options).addHandler(owner: owner, on: delivery, handler)
  }

  /// The changes of a key path of a `@MainActor` `@Observable` object from now on, as an
  /// `AsyncSequence`, buffered without limit.
  ///
  /// ```swift
  /// for await change in counter.changes(of: \.count, options: [.initial, .new]) {
  ///   print("count is", change.newValue!)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A sequence with its own observation.
  ///
  /// > Important: Call it on the main actor. Changes are produced on the main actor as with the
  /// > main-actor `observe(_:options:on:_:)` and ``Delivery/immediate``. Cancelling the consuming
  /// > task, or dropping the sequence, ends the observation; the sequence finishes when the object
  /// > is deallocated.
  @MainActor
  public func changes<Value: Sendable>(
    of keyPath: KeyPath<Self, Value>,
    options: ObservationOptions = [.new]
  ) -> HandlerValues<Change<Value>> {
    handlerValues { observe(keyPath, options: options, $0) }
  }
}
