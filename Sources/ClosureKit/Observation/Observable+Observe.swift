public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// Observes a key path of an `@Observable` object continuously, with Key-Value Observing's
  /// options: the closure form of KVO for Swift's Observation.
  ///
  /// ```swift
  /// @Observable final class Order: @unchecked Sendable {   // owned by one queue
  ///   var customer = Customer(name: "Ada")
  /// }
  /// let order = Order()
  /// order.observe(\.customer.name, options: [.old, .new], on: .queue(orderQueue)) { change in
  ///   print(change.oldValue!, "->", change.newValue!)
  /// }
  /// ```
  ///
  /// Unlike `withObservationTracking`, which reports one change, the observation re-arms itself
  /// after every change, and a key-path chain follows an intermediate object that is replaced.
  /// For an `owner:`, `once` or a `@MainActor` closure, register through
  /// `observing(_:options:)`'s source instead; this is
  /// `observing(keyPath, options: options).addHandler(on: delivery, handler)`.
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch; every `@Observable` property read along it is tracked.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs, and where the post-change read happens (see below).
  ///     Defaults to ``Delivery/immediate``.
  ///   - handler: Receives each ``Change``.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: Observation has no did-change hook in this toolchain, so a change is reported in
  /// > two moments. The prior callback runs in the willSet of the first write, on the writing
  /// > thread (or is enqueued from there). The post callback runs after a *hop*: on the
  /// > delivery's queue or actor; for ``Delivery/immediate`` on the main queue when the write was
  /// > made there, else on a serial queue of the observation; a hop for a write made on another
  /// > queue waits 1 ms for the write to finish. Writes made until the hop runs are coalesced into
  /// > that one post callback, whose `newValue` is read when it runs. When the model's writes are made
  /// > on the queue or actor the hop targets, the last value is always delivered, never twice,
  /// > never out of order. A write from another thread whose store lands after the hop is caught
  /// > by re-checks for 4 s after it, and delivered as one more post callback (see the article
  /// > <doc:Observation>). The observation ends when the object is deallocated, when the token is
  /// > cancelled, or (owner variant) when the owner is deallocated; the object is never retained.
  @inlinable @discardableResult
  public func observe<Value: Sendable>(
    _ keyPath: any KeyPath<Self, Value> & Sendable,
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
  /// > Important: The rules of the `observe(_:options:on:_:)`; never called after the owner is gone.
  @available(*, deprecated, message: "use observing(_:options:).addHandler(owner:on:) { ... }")
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, Value: Sendable>(
    _ keyPath: any KeyPath<Self, Value> & Sendable,
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Owner, Change<Value>) -> Void
  ) -> HandlerSubscription {
    observing(keyPath, options: options).addHandler(owner: owner, on: delivery, handler)
  }

  /// The changes of a key path from now on, as an `AsyncSequence`, buffered without limit.
  ///
  /// ```swift
  /// for await change in model.changes(of: \.count, options: [.initial, .new]) {
  ///   print("count is", change.newValue!)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A sequence with its own observation.
  ///
  /// > Important: Changes are produced as with ``observe(_:options:on:_:)`` and
  /// > ``Delivery/immediate`` (coalesced the same way). Cancelling the consuming task, or dropping
  /// > the sequence, ends the observation; the sequence finishes when the object is deallocated.
  public func changes<Value: Sendable>(
    of keyPath: any KeyPath<Self, Value> & Sendable,
    options: ObservationOptions = [.new]
  ) -> HandlerValues<Change<Value>> {
    handlerValues { observe(keyPath, options: options, $0) }
  }
}
