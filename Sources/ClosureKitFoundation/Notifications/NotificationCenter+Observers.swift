public import ClosureKit
public import Foundation

// The `addObserver(forName:…)` overloads, deprecated for one release: `observing(_:object:)`
// returns a `HandlerSource`, which has `addHandler`, `once`, the owner variants (with `owner:`
// before `on:`, as everywhere else) and the main-actor view.

extension NotificationCenter {
  /// Deprecated: use `observing(name, object: object).addHandler(on:_:)`. The timing of
  /// Foundation's `addObserver(forName:object:queue:using:)`: with `.immediate` (its `queue: nil`)
  /// or `.operationQueue(queue)` the handler has run when `post` returns; `.queue` and
  /// `.mainActor` deliver later.
  ///
  /// - Parameters:
  ///   - name: The notification name, or `nil` for every name.
  ///   - object: Only notifications posted with this object, or `nil` for any sender.
  ///   - delivery: Where the handler runs. Defaults to `Delivery/immediate`.
  ///   - handler: Receives each notification.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: The rules of ``observing(_:object:)``.
  @available(*, deprecated, message: "use observing(_:object:).addHandler(on:) { ... }")
  @discardableResult
  public func addObserver(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Notification) -> Void
  ) -> HandlerSubscription {
    observing(name, object: object).addHandler(on: delivery, handler)
  }

  /// Deprecated: use `observing(name, object: object).addHandler(owner:on:_:)`. The timing of
  /// Foundation's `addObserver(forName:object:queue:using:)`: with `.immediate` or
  /// `.operationQueue(queue)` the handler has run when `post` returns; `.queue` and `.mainActor`
  /// deliver later.
  ///
  /// - Parameters:
  ///   - name: The notification name, or `nil` for every name.
  ///   - object: Only notifications posted with this object, or `nil` for any sender.
  ///   - delivery: Where the handler runs. Defaults to `Delivery/immediate`.
  ///   - owner: Held weakly; the observer ends when it is deallocated.
  ///   - handler: Receives the owner and each notification.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: The rules of ``observing(_:object:)``.
  @available(*, deprecated, message: "use observing(_:object:).addHandler(owner:on:) { ... }")
  @discardableResult
  public func addObserver<Owner: AnyObject & Sendable>(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: Delivery = .immediate,
    owner: Owner,
    _ handler: @escaping @Sendable (Owner, Notification) -> Void
  ) -> HandlerSubscription {
    observing(name, object: object).addHandler(owner: owner, on: delivery, handler)
  }

  /// Deprecated: use `observing(name, object: object).onMainActor.addHandler(_:)`.
  ///
  /// - Parameters:
  ///   - name: The notification name; `nil` for every name.
  ///   - object: The sender to observe; `nil` for any sender.
  ///   - delivery: `MainActorDelivery.mainActor`.
  ///   - handler: Receives each notification on the main actor.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: Delivered as with `Delivery.mainActor`.
  @available(*, deprecated, message: "use observing(_:object:).onMainActor.addHandler { ... }")
  @discardableResult
  public func addObserver(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: MainActorDelivery,
    _ handler: @escaping @MainActor @Sendable (Notification) -> Void
  ) -> HandlerSubscription {
    observing(name, object: object).onMainActor.addHandler(handler)
  }

  /// Deprecated: use `observing(name, object: object).onMainActor.addHandler(owner:_:)`.
  ///
  /// - Parameters:
  ///   - name: The notification name; `nil` for every name.
  ///   - object: The sender to observe; `nil` for any sender.
  ///   - delivery: `MainActorDelivery.mainActor`.
  ///   - owner: Held weakly; the observer is removed when it is deallocated.
  ///   - handler: Receives the owner and each notification on the main actor.
  /// - Returns: A token that removes the observer; dropping it does not.
  ///
  /// > Important: Delivered as with `Delivery.mainActor`; never after the owner is gone.
  @available(*, deprecated, message: "use observing(_:object:).onMainActor.addHandler(owner:) { ... }")
  @discardableResult
  public func addObserver<Owner: AnyObject & Sendable>(
    forName name: Notification.Name?,
    object: Any? = nil,
    on delivery: MainActorDelivery,
    owner: Owner,
    _ handler: @escaping @MainActor @Sendable (Owner, Notification) -> Void
  ) -> HandlerSubscription {
    observing(name, object: object).onMainActor.addHandler(owner: owner, handler)
  }
}
