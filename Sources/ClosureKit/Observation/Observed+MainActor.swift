extension Observed {
  /// Observes the value with a `@MainActor` handler that runs on the main actor.
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///   var text = ""
  ///   func bind(to volume: Observed<Int>) {
  ///     volume.observe(options: [.initial, .new], on: .mainActor) { @MainActor change in
  ///       self.text = "\(change.newValue ?? 0)"
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Write `@MainActor` in the closure to choose this overload: an unannotated closure picks the
  /// ``Delivery/mainActor`` overload, whose handler is not isolated.
  ///
  /// - Parameters:
  ///   - options: ``ObservationOptions``, as with a ``Delivery``.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - handler: Receives each change on the main actor.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``: asynchronously, in write order, after
  /// > the write (a prior callback carries the old value), and not at all once the token is
  /// > cancelled, even if already enqueued.
  @discardableResult
  public func observe(
    options: ObservationOptions = [.new],
    on delivery: MainActorDelivery,
    _ handler: @escaping @MainActor @Sendable (Change<Value>) -> Void
  ) -> Subscription {
    observe(options: options, on: .mainActor) { change in MainActor.assumeIsolated { handler(change) } }
  }

  /// Observes the value with a `@MainActor` handler bound to `owner`.
  ///
  /// ```swift
  /// volume.observe(owner: self, options: [.new], on: .mainActor) { @MainActor screen, change in
  ///   screen.text = "\(change.newValue ?? 0)"
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; the observation ends when it is deallocated.
  ///   - options: ``ObservationOptions``.
  ///   - delivery: ``MainActorDelivery/mainActor``.
  ///   - handler: Receives the owner and each change on the main actor.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: Delivered as with ``Delivery/mainActor``; never after the owner is gone.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: MainActorDelivery,
    _ handler: @escaping @MainActor @Sendable (Owner, Change<Value>) -> Void
  ) -> Subscription {
    observe(owner: owner, options: options, on: .mainActor) { owner, change in
      MainActor.assumeIsolated { handler(owner, change) }
    }
  }
}
