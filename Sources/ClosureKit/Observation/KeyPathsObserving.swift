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
public struct KeyPathsObserving<Root: Observable & AnyObject & Sendable>: FlattenedHandlerSource {
  /// Each call reports which key path changed, and how.
  ///
  /// ```swift
  /// @Observable final class Order: @unchecked Sendable {   // written on one queue
  ///   var total = 0
  /// }
  /// func show(_ field: KeyPathsObserving<Order>.Payload) { print(field.keyPath, field.change.newValue!) }
  /// ```
  ///
  /// > Important: A value: the handler may keep it or hand it to another thread.
  public typealias Payload = FieldChange<Root>

  /// Starts the observation of one key path.
  typealias Start =
    @Sendable (
      _ root: Root, _ delivery: Delivery, _ owner: (any AnyObject & Sendable)?, _ hopQueue: DispatchQueue?,
      _ handler: @escaping @Sendable (FieldChange<Root>) -> Void
    ) -> HandlerSubscription

  /// The observed object.
  let root: Root
  /// One starter for each key path, in order.
  let starts: [Start]

  /// Starts one observation of every key path: the store behind `FlattenedHandlerSource`'s
  /// `register`. With ``Delivery/immediate``, the key paths' trackers share one hop queue.
  package func addFlattened(_ added: FlattenedRegistration<Payload>) -> HandlerSubscription {
    let hopQueue = added.delivery.isImmediate ? DispatchQueue(label: "ClosureKit.observe.hop") : nil
    return SubscriptionGroup.subscription(
      for: starts.map { start in start(root, added.delivery, added.owner, hopQueue, added.handler) })
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
public struct MainActorKeyPathsObserving<Root: Observable & AnyObject & Sendable>: FlattenedHandlerSource {
  /// Each call reports which key path changed, and how.
  ///
  /// ```swift
  /// @MainActor @Observable final class Counter {
  ///   var count = 0
  /// }
  /// func show(_ field: MainActorKeyPathsObserving<Counter>.Payload) { print(field.keyPath) }
  /// ```
  ///
  /// > Important: A value: the handler may keep it or hand it to another thread.
  public typealias Payload = FieldChange<Root>

  /// Starts the observation of one key path, on the main actor.
  typealias Start =
    @MainActor @Sendable (
      _ root: Root, _ delivery: Delivery, _ owner: (any AnyObject & Sendable)?,
      _ handler: @escaping @Sendable (FieldChange<Root>) -> Void
    ) -> HandlerSubscription

  /// The observed object.
  let root: Root
  /// One starter for each key path, in order; each is called on the main actor only.
  let starts: [Start]
  /// The method the user called, named by the delivery precondition.
  let function: StaticString

  /// Starts one observation of every key path on the main actor (stopping the program on any
  /// other thread, or for a delivery other than ``Delivery/immediate`` or ``Delivery/mainActor``):
  /// the store behind `FlattenedHandlerSource`'s `register`.
  package func addFlattened(_ added: FlattenedRegistration<Payload>) -> HandlerSubscription {
    MainActor.assumeIsolated {
      Root.checkOnMainActor(added.delivery, function: function)
      return SubscriptionGroup.subscription(
        for: starts.map { start in start(root, added.delivery, added.owner, added.handler) })
    }
  }
}
