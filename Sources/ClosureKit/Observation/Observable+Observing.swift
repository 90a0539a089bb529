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
public struct KeyPathObserving<Root: Observable & AnyObject & Sendable, Value: Sendable>: HandlerSource {
  /// The observed object.
  let root: Root
  /// The value watched.
  let keyPath: any KeyPath<Root, Value> & Sendable
  /// What each registration reports.
  let options: ObservationOptions

  /// Starts one observation for `handler`: the primitive behind `addHandler` and `once`.
  ///
  /// ```swift
  /// @Observable final class Order: @unchecked Sendable {   // written on one queue
  ///   var total = 0
  /// }
  /// let order = Order()
  /// let token = order.observing(\.total).register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Change<Int>>.plain { print($0.newValue!) })
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: The rules of `observe(_:options:on:_:)`.
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Change<Value>>
  ) -> Subscription {
    let delivery = delivery
    return handler.registerFlattened(once: once) { owner, handler in
      ObservableTracker(
        root: root, keyPath: keyPath, options: options, delivery: delivery, owner: owner, handler: handler
      )
      .start()
    }
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
public struct MainActorKeyPathObserving<Root: Observable & AnyObject & Sendable, Value: Sendable>: HandlerSource,
  @unchecked Sendable
{
  // @unchecked Sendable: the key path (not Sendable: it names main-actor-isolated properties) is
  // read only on the main actor: `register` runs inside `MainActor.assumeIsolated`, which stops the
  // program on any other thread; it is made on the main actor by the `@MainActor` `observing`.

  /// The observed object.
  let root: Root
  /// The value watched; used only on the main actor.
  let keyPath: KeyPath<Root, Value>
  /// What each registration reports.
  let options: ObservationOptions

  /// Starts one observation for `handler`, on the main actor: the primitive behind
  /// `addHandler` and `once`.
  ///
  /// ```swift
  /// @MainActor @Observable final class Counter {
  ///   var count = 0
  /// }
  /// @MainActor func bind(_ counter: Counter) {
  ///   let token = counter.observing(\.count).register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Change<Int>>.plain { print($0.newValue!) })
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - once: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  ///   - handler: The closure, with its owner if it has one.
  /// - Returns: A token that ends the observation; dropping it does not.
  ///
  /// > Important: Call it on the main actor; the rules of the main-actor `observe(_:options:on:_:)`.
  public func register<Owner: AnyObject & Sendable>(
    once: Bool,
    on delivery: consuming Delivery,
    file: StaticString,
    line: UInt,
    _ handler: consuming SourceHandler<Owner, Change<Value>>
  ) -> Subscription {
    let delivery = delivery
    let handler = handler
    return MainActor.assumeIsolated {
      handler.registerFlattened(once: once) { owner, handler in
        MainActorObservableTracker(
          root: root, keyPath: keyPath, options: options, delivery: delivery, owner: owner, handler: handler
        )
        .start()
      }
    }
  }
}
