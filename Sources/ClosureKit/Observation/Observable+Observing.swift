public import Observation

extension Observable where Self: AnyObject & Sendable {
  /// A key path of an `@Observable` object, with `options`, as a ``HandlerSource``: `addHandler`,
  /// `once`, the `owner:` variants and the main-actor view, each observing continuously as
  /// ``observe(_:options:on:_:)`` does.
  ///
  /// ```swift
  /// @Observable final class Memo: @unchecked Sendable {   // written on the main queue
  ///   var title = ""
  /// }
  /// final class TitleLabel: Sendable { func show(_ title: String) {} }
  /// let memo = Memo()
  /// let titleLabel = TitleLabel()
  /// memo.observing(\.title, options: [.initial, .new]).addHandler(owner: titleLabel) { titleLabel, change in
  ///   titleLabel.show(change.newValue!)
  /// }
  /// memo.observing(\.title).once { change in print("renamed to", change.newValue!) }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch; every `@Observable` property read along it is tracked.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A source whose handlers receive each ``Change``.
  ///
  /// > Important: Each registration is one observation with the rules of
  /// > ``observe(_:options:on:_:)`` (the prior callback on the writing thread, the post callback
  /// > after a hop, coalescing; see <doc:Observation>). A `once` handler runs for the first
  /// > callback only, then ends its observation. The source holds the object strongly; an
  /// > observation never does.
  public func observing<Value: Sendable>(
    _ keyPath: any KeyPath<Self, Value> & Sendable,
    options: ObservationOptions = [.new]
  ) -> KeyPathObserving<Self, Value> {
    KeyPathObserving(root: self, keyPath: keyPath, options: options)
  }

  /// A key path of a `@MainActor` `@Observable` object, with `options`, as a ``HandlerSource``;
  /// call it, and register through it, on the main actor.
  ///
  /// ```swift
  /// @MainActor @Observable final class Counter {
  ///   var count = 0
  /// }
  /// @MainActor final class CounterScreen {
  ///   var text = ""
  ///   func bind(to counter: Counter) {
  ///     counter.observing(\.count, options: [.initial, .new]).onMainActor.addHandler { change in
  ///       self.text = "\(change.newValue!)"
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Key paths to main-actor-isolated properties are not `Sendable`, so this overload is chosen for
  /// them, as for ``observe(_:options:on:_:)``.
  ///
  /// - Parameters:
  ///   - keyPath: The value to watch.
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A source whose handlers receive each ``Change``.
  ///
  /// > Important: Register on the main actor (a registration elsewhere stops the program). Each
  /// > registration is one observation with the rules of the main-actor `observe(_:options:on:_:)`:
  /// > the key path is read and re-armed on the main actor, and with ``Delivery/immediate`` the
  /// > handler runs there.
  @MainActor
  public func observing<Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    options: ObservationOptions = [.new]
  ) -> MainActorKeyPathObserving<Self, Value> {
    MainActorKeyPathObserving(root: self, keyPath: keyPath, options: options)
  }
}

/// A key path of an `@Observable` object as a ``HandlerSource``: from
/// `observing(_:options:)`.
///
/// ```swift
/// @Observable final class Order: @unchecked Sendable {   // written on one queue
///   var total = 0
/// }
/// let order = Order()
/// order.observing(\.total).addHandler { change in print("total", change.newValue!) }
/// ```
///
/// > Important: Each registration is one continuous observation; see `observe(_:options:on:_:)`.
public struct KeyPathObserving<Root: Observable & AnyObject & Sendable, Value: Sendable>: FlattenedHandlerSource {
  /// Each call reports a change of the value.
  ///
  /// ```swift
  /// @Observable final class Order: @unchecked Sendable {   // written on one queue
  ///   var total = 0
  /// }
  /// func show(_ change: KeyPathObserving<Order, Int>.Payload) { print(change.newValue ?? 0) }
  /// ```
  ///
  /// > Important: A value: the handler may keep it or hand it to another thread.
  public typealias Payload = Change<Value>

  /// The observed object.
  let root: Root
  /// The value watched.
  let keyPath: any KeyPath<Root, Value> & Sendable
  /// What each registration reports.
  let options: ObservationOptions

  /// Starts one observation: the store behind `FlattenedHandlerSource`'s `register`.
  package func addFlattened(_ added: FlattenedRegistration<Payload>) -> HandlerSubscription {
    ObservableTracker(
      root: root, keyPath: keyPath, options: options, delivery: added.delivery, owner: added.owner,
      handler: added.handler
    )
    .start()
  }
}

/// A key path of a `@MainActor` `@Observable` object as a ``HandlerSource``: from the main-actor
/// `observing(_:options:)`. Register through it on the main actor.
///
/// ```swift
/// @MainActor @Observable final class Counter {
///   var count = 0
/// }
/// @MainActor func bind(_ counter: Counter) {
///   counter.observing(\.count).addHandler { change in print("count", change.newValue!) }
/// }
/// ```
///
/// > Important: A registration off the main actor stops the program; see the main-actor
/// > `observe(_:options:on:_:)` for the rest.
public struct MainActorKeyPathObserving<Root: Observable & AnyObject & Sendable, Value: Sendable>:
  FlattenedHandlerSource,
  @unchecked Sendable
{
  // @unchecked Sendable: the key path (not Sendable: it names main-actor-isolated properties) is
  // read only on the main actor: `addFlattened` runs inside `MainActor.assumeIsolated`, which stops
  // the program on any other thread; it is made on the main actor by the `@MainActor` `observing`.

  /// Each call reports a change of the value.
  ///
  /// ```swift
  /// @MainActor @Observable final class Counter {
  ///   var count = 0
  /// }
  /// func show(_ change: MainActorKeyPathObserving<Counter, Int>.Payload) { print(change.newValue ?? 0) }
  /// ```
  ///
  /// > Important: A value: the handler may keep it or hand it to another thread.
  public typealias Payload = Change<Value>

  /// The observed object.
  let root: Root
  /// The value watched; used only on the main actor.
  let keyPath: KeyPath<Root, Value>
  /// What each registration reports.
  let options: ObservationOptions

  /// Starts one observation on the main actor (stopping the program on any other thread): the
  /// store behind `FlattenedHandlerSource`'s `register`.
  package func addFlattened(_ added: FlattenedRegistration<Payload>) -> HandlerSubscription {
    MainActor.assumeIsolated {
      MainActorObservableTracker(
        root: root, keyPath: keyPath, options: options, delivery: added.delivery, owner: added.owner,
        handler: added.handler
      )
      .start()
    }
  }
}
