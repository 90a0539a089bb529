import Dispatch
public import Observation

/// Several key paths of an `@Observable` object as a ``HandlerSource``: from
/// `observing(_:options:)` with several key paths.
///
/// ```swift
/// @Observable final class Order: @unchecked Sendable {   // written on one queue
///   var total = 0
///   var note = ""
/// }
/// let order = Order()
/// order.observing(\.total, \.note).addHandler { field in print(field.keyPath, field.change.newValue!) }
/// ```
///
/// > Important: Each registration is one continuous observation of every key path, with one token.
public struct KeyPathsObserving<Root: Observable & AnyObject & Sendable>: HandlerSource {
  /// Starts the observation of one key path.
  typealias Start =
    @Sendable (
      _ root: Root, _ delivery: Delivery, _ owner: (any AnyObject & Sendable)?, _ hopQueue: DispatchQueue?,
      _ handler: @escaping @Sendable (FieldChange<Root>) -> Void
    ) -> Subscription

  /// The observed object.
  let root: Root
  /// One starter for each key path, in order.
  let starts: [Start]

  /// Starts one observation of every key path for `handler`: the primitive behind `addHandler`
  /// and `once`.
  ///
  /// ```swift
  /// @Observable final class Order: @unchecked Sendable {   // written on one queue
  ///   var total = 0
  ///   var note = ""
  /// }
  /// let order = Order()
  /// let token = order.observing(\.total, \.note).register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, FieldChange<Order>>.plain { print($0.keyPath) })
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that ends every observation; dropping it does not.
  ///
  /// > Important: The rules of `observing(_:options:)` with several key paths.
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, FieldChange<Root>>
  ) -> Subscription {
    let delivery = delivery
    let hopQueue = delivery.isImmediate ? DispatchQueue(label: "ClosureKit.observe.hop") : nil
    return handler.registerFlattened(once: once) { owner, handler in
      SubscriptionGroup.subscription(for: starts.map { start in start(root, delivery, owner, hopQueue, handler) })
    }
  }
}

/// Several key paths of a `@MainActor` `@Observable` object as a ``HandlerSource``: from the
/// main-actor `observing(_:options:)` with several key paths. Register through it on the main actor.
///
/// ```swift
/// @MainActor @Observable final class Counter {
///   var count = 0
///   var label = ""
/// }
/// @MainActor func bind(_ counter: Counter) {
///   counter.observing(\.count, \.label).onMainActor.addHandler { field in print(field.keyPath) }
/// }
/// ```
///
/// > Important: A registration off the main actor, or with a delivery other than
/// > ``Delivery/immediate`` or ``Delivery/mainActor``, stops the program.
public struct MainActorKeyPathsObserving<Root: Observable & AnyObject & Sendable>: HandlerSource {
  /// Starts the observation of one key path, on the main actor.
  typealias Start =
    @MainActor @Sendable (
      _ root: Root, _ delivery: Delivery, _ owner: (any AnyObject & Sendable)?,
      _ handler: @escaping @Sendable (FieldChange<Root>) -> Void
    ) -> Subscription

  /// The observed object.
  let root: Root
  /// One starter for each key path, in order; each is called on the main actor only.
  let starts: [Start]

  /// Starts one observation of every key path for `handler`, on the main actor: the primitive
  /// behind `addHandler` and `once`.
  ///
  /// ```swift
  /// @MainActor @Observable final class Counter {
  ///   var count = 0
  ///   var label = ""
  /// }
  /// @MainActor func bind(_ counter: Counter) {
  ///   let token = counter.observing(\.count, \.label).register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, FieldChange<Counter>>.plain { print($0.keyPath) })
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: ``Delivery/immediate`` or ``Delivery/mainActor``.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that ends every observation; dropping it does not.
  ///
  /// > Important: Call it on the main actor; the rules of the main-actor `observing(_:options:)`.
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, FieldChange<Root>>
  ) -> Subscription {
    let delivery = delivery
    let handler = handler
    return MainActor.assumeIsolated {
      Root.checkOnMainActor(delivery, function: "observing(_:options:)")
      return handler.registerFlattened(once: once) { owner, handler in
        SubscriptionGroup.subscription(for: starts.map { start in start(root, delivery, owner, handler) })
      }
    }
  }
}
