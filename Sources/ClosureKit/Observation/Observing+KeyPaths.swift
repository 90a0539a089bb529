import Dispatch
public import Observation

/// The change of one of several observed key paths: the payload of the several-key-path sources,
/// `box.observing(\.a, \.b)` and `model.observing(\.a, \.b)`.
///
/// ```swift
/// struct Layout: Sendable { var width = 0; var title = "" }
/// let layout = Observed(Layout())
/// layout.observing(\.width, \.title).addHandler { field in
///   if field.keyPath == \Layout.width { print("width is now", field.change.newValue as? Int ?? 0) }
/// }
/// ```
///
/// > Important: A value; read it on any thread. Apply ``keyPath`` to a main-actor root only on the
/// > main actor (the main-actor sources deliver there).
public struct FieldChange<Root>: @unchecked Sendable {
  // @unchecked Sendable: both fields are immutable; `change` is Sendable, and a key path is an
  // immutable object (it is not declared Sendable because it may name main-actor-isolated
  // properties, whose isolation applies when the key path is applied, not when it is passed on).

  /// The key path that changed, as given to `observing(_:options:)`.
  public let keyPath: PartialKeyPath<Root>
  /// Its change; cast the values to the key path's type (`change.newValue as? Int`).
  public let change: Change<any Sendable>

  init(keyPath: PartialKeyPath<Root>, change: Change<any Sendable>) {
    self.keyPath = keyPath
    self.change = change
  }
}

extension Observed {
  /// Several fields of the box's value as a ``HandlerSource``, told which field changed
  /// (BlocksKit's `bk_addObserverForKeyPaths:task:`): `addHandler`, `once`, the `owner:` variants
  /// and the main-actor view.
  ///
  /// ```swift
  /// struct Layout: Sendable { var width = 0; var title = "" }
  /// let layout = Observed(Layout())
  /// layout.observing(\.width, \.title, options: [.old, .new]).addHandler { field in
  ///   print(field.keyPath == \Layout.width ? "width" : "title", field.change.newValue!)
  /// }
  /// layout.modify { $0.width = 320 }   // prints "width 320"
  /// ```
  ///
  /// After each write, a handler runs once for each key path whose field differs (`!=`) between
  /// the value before and after the write, in the order the key paths are given; a write that
  /// changes none of them calls nothing. With ``ObservationOptions/initial`` it runs once per key
  /// path at registration. A `once` handler runs for the first changed field only.
  ///
  /// - Parameters:
  ///   - keyPaths: One or more fields of `Value`, each `Equatable`.
  ///   - options: What to report; ``ObservationOptions/prior`` is not offered (which fields a
  ///     write changes is known only after it). Defaults to `[.new]`.
  /// - Returns: A source whose handlers receive a ``FieldChange`` for each changed field.
  ///
  /// > Important: Each registration is one observer of the box, with the threading of
  /// > ``observe(options:on:_:)-(_,Delivery,_)``: the calls for one write run one after another,
  /// > in the same place (the delivering thread, the queue, the main actor). No key path, or
  /// > `.prior` in `options`, stops the program with a message naming the argument.
  ///
  /// - Complexity: O(k) comparisons per write, k being the number of key paths.
  public func observing<each Field: Equatable & Sendable>(
    _ keyPaths: repeat any KeyPath<Value, each Field> & Sendable,
    options: ObservationOptions = [.new]
  ) -> FieldsObserving {
    let report = Self.fieldReporter(repeat each keyPaths, options: options, function: "observing(_:options:)")
    return FieldsObserving(box: self, options: Self.boxOptions(for: options), report: report)
  }

  /// Several fields of an ``Observed`` box as a ``HandlerSource``: from
  /// ``Observed/observing(_:options:)``.
  ///
  /// ```swift
  /// struct Size: Sendable { var width = 0; var height = 0 }
  /// let size = Observed(Size())
  /// size.observing(\.width, \.height).once { field in print("first change:", field.keyPath) }
  /// ```
  ///
  /// > Important: Holds the box strongly; registrations follow the rules of ``HandlerSource`` and
  /// > of ``Observed/observing(_:options:)``.
  public struct FieldsObserving: FlattenedHandlerSource {
    /// Each call reports which field changed, and how.
    ///
    /// ```swift
    /// struct Size: Sendable { var width = 0; var height = 0 }
    /// func show(_ field: Observed<Size>.FieldsObserving.Payload) { print(field.keyPath) }
    /// ```
    ///
    /// > Important: A value: the handler may keep it or hand it to another thread.
    public typealias Payload = FieldChange<Value>

    /// The observed box.
    let box: Observed
    /// What the box registration asks for.
    let options: ObservationOptions
    /// Turns one change of the box into the changes of the fields.
    let report: @Sendable (Change<Value>, (PartialKeyPath<Value>, Change<any Sendable>) -> Void) -> Void

    /// Adds one observer of the box that reports the fields' changes: the store behind
    /// `FlattenedHandlerSource`'s `register`.
    package func addFlattened(_ added: FlattenedRegistration<Payload>) -> HandlerSubscription {
      let report = report
      let handler = added.handler
      let fields: @Sendable (Change<Value>) -> Void = { change in
        report(change) { keyPath, fieldChange in handler(FieldChange(keyPath: keyPath, change: fieldChange)) }
      }
      // The owner is recorded by the registry (its node, swept when the owner goes); the handler
      // already checks it, and claims a `once` call for the first changed field, not the first
      // change of the box (which may change none of the fields).
      guard let owner = added.owner else {
        return box.storage.add(
          tag: options, once: false, delivery: added.delivery, site: nil,
          SourceHandler<NoOwner, Change<Value>>.plain(fields))
      }
      return box.storage.add(
        tag: options, once: false, delivery: added.delivery, site: nil, .owned(owner) { _, change in fields(change) })
    }
  }
}

extension Observable where Self: AnyObject & Sendable {
  /// Several key paths of an `@Observable` object as a ``HandlerSource``, told which key path
  /// changed (BlocksKit's `bk_addObserverForKeyPaths:task:`).
  ///
  /// ```swift
  /// @Observable final class Track: @unchecked Sendable {   // owned by one queue
  ///   var title = ""
  ///   var rating = 0
  /// }
  /// let track = Track()
  /// track.observing(\.title, \.rating).addHandler(on: .queue(orderQueue)) { field in
  ///   if field.keyPath == \Track.rating { print("rating", field.change.newValue as? Int ?? 0) }
  /// }
  /// ```
  ///
  /// Each registration observes each key path as `observing(_:options:)` with one key path does
  /// (continuously, following replaced intermediate objects, coalescing writes until the hop), and
  /// all of them share one token. A `once` handler runs for the first change of any of them.
  ///
  /// - Parameters:
  ///   - keyPaths: One or more values to watch, of any `Sendable` types.
  ///   - options: What to report for each; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A source whose handlers receive a ``FieldChange`` for each change.
  ///
  /// > Important: The post callbacks of different key paths never overlap: with
  /// > ``Delivery/immediate`` they share one serial hop queue (or the main queue, for writes made
  /// > there); with a queue or the main actor, they run there. One write that changes two key paths
  /// > gives two calls, in no order promised. The initial callbacks run in key-path order before
  /// > the registration returns. No key path stops the program with a message naming the argument.
  public func observing<each Value: Sendable>(
    _ keyPaths: repeat any KeyPath<Self, each Value> & Sendable,
    options: ObservationOptions = [.new]
  ) -> KeyPathsObserving<Self> {
    observingKeyPaths(repeat each keyPaths, options: options, function: "observing(_:options:)")
  }

  /// Several key paths of a `@MainActor` `@Observable` object as a ``HandlerSource``; call it,
  /// and register through it, on the main actor.
  ///
  /// ```swift
  /// @MainActor @Observable final class Player {
  ///   var title = ""
  ///   var progress = 0.0
  /// }
  /// @MainActor func bind(_ player: Player) {
  ///   player.observing(\.title, \.progress).onMainActor.addHandler { field in
  ///     print(field.keyPath == \Player.title ? "title" : "progress", field.change.newValue!)
  ///   }
  /// }
  /// ```
  ///
  /// Key paths to main-actor-isolated properties are not `Sendable`, so this overload is chosen for
  /// them; the call site is spelled as for a `Sendable` model.
  ///
  /// - Parameters:
  ///   - keyPaths: One or more values to watch, of any `Sendable` types.
  ///   - options: What to report for each; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A source whose handlers receive a ``FieldChange`` for each change.
  ///
  /// > Important: Register on the main actor, with ``Delivery/immediate`` or ``Delivery/mainActor``
  /// > (anything else stops the program, naming the argument). Each key path is read, armed and
  /// > re-read on the main actor, and every call runs there, one at a time (the initial ones, in
  /// > key-path order, before the registration returns).
  @MainActor
  public func observing<each Value: Sendable>(
    _ keyPaths: repeat KeyPath<Self, each Value>,
    options: ObservationOptions = [.new]
  ) -> MainActorKeyPathsObserving<Self> {
    mainActorObservingKeyPaths(repeat each keyPaths, options: options, function: "observing(_:options:)")
  }

  /// The source of `observing(_:options:)` with several key paths; its preconditions name
  /// `function`, the method the user called (the deprecated `observe` forms build it too).
  func observingKeyPaths<each Value: Sendable>(
    _ keyPaths: repeat any KeyPath<Self, each Value> & Sendable,
    options: ObservationOptions,
    function: StaticString
  ) -> KeyPathsObserving<Self> {
    var starts: [KeyPathsObserving<Self>.Start] = []
    for keyPath in repeat each keyPaths {
      starts.append(Self.start(keyPath, options: options))
    }
    return KeyPathsObserving(root: self, starts: Self.nonEmpty(starts, function: function))
  }

  /// The source of the main-actor `observing(_:options:)` with several key paths; its
  /// preconditions name `function`, the method the user called.
  @MainActor
  func mainActorObservingKeyPaths<each Value: Sendable>(
    _ keyPaths: repeat KeyPath<Self, each Value>,
    options: ObservationOptions,
    function: StaticString
  ) -> MainActorKeyPathsObserving<Self> {
    var starts: [MainActorKeyPathsObserving<Self>.Start] = []
    for keyPath in repeat each keyPaths {
      starts.append(Self.mainActorStart(keyPath, options: options))
    }
    return MainActorKeyPathsObserving(
      root: self, starts: Self.nonEmpty(starts, function: function), function: function)
  }

  /// `starts`, or the end of the program, naming `function`, when no key path was given.
  private static func nonEmpty<Start>(_ starts: [Start], function: StaticString) -> [Start] {
    if starts.isEmpty {
      failPrecondition("\(function): the argument `keyPaths` is empty; pass at least one key path")
    }
    return starts
  }

  /// What starts the observation of one key path for a registration of `observing(_:options:)`.
  private static func start<Value: Sendable>(
    _ keyPath: any KeyPath<Self, Value> & Sendable,
    options: ObservationOptions
  ) -> KeyPathsObserving<Self>.Start {
    { root, delivery, owner, hopQueue, handler in
      ObservableTracker(
        root: root, keyPath: keyPath, options: options, delivery: delivery, owner: owner,
        handler: { change in handler(FieldChange(keyPath: keyPath, change: change.erased)) }, hopQueue: hopQueue
      )
      .start()
    }
  }

  /// What starts the observation of one key path of a main-actor model, on the main actor.
  @MainActor
  private static func mainActorStart<Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    options: ObservationOptions
  ) -> MainActorKeyPathsObserving<Self>.Start {
    let reported = MainActorHandler(keyPath)
    return { root, delivery, owner, handler in
      MainActorObservableTracker(
        root: root, keyPath: reported.value, options: options, delivery: delivery, owner: owner,
        handler: { change in handler(FieldChange(keyPath: reported.value, change: change.erased)) }
      )
      .start()
    }
  }
}
