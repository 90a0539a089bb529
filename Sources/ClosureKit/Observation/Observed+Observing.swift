extension Observed {
  /// The box's changes with `options`, as a ``HandlerSource``: `addHandler`, `once`, the `owner:`
  /// variants and the main-actor view, each reporting as ``observe(options:on:_:)-(_,Delivery,_)``.
  ///
  /// ```swift
  /// final class VolumeLabel: Sendable { func show(_ volume: Double) {} }
  /// let label = VolumeLabel()
  /// let volume = Observed(0.5)
  /// volume.observing([.initial, .new]).addHandler(owner: label) { label, change in
  ///   label.show(change.newValue!)
  /// }
  /// volume.observing([.old, .new]).once { change in print("first change from", change.oldValue!) }
  /// ```
  ///
  /// - Parameter options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  /// - Returns: A source whose handlers receive each ``Change``.
  ///
  /// > Important: Each registration follows ``observe(options:on:_:)-(_,Delivery,_)``'s rules
  /// > (the initial callback runs or is enqueued before the registration returns; each observer
  /// > sees the changes in write order). A `once` handler runs for the first callback only, prior
  /// > or initial included, then ends.
  public func observing(_ options: ObservationOptions = [.new]) -> Observing {
    Observing(box: self, options: options)
  }

  /// The changes of an ``Observed`` box with a set of options: a ``HandlerSource`` from
  /// ``Observed/observing(_:)``.
  ///
  /// ```swift
  /// let count = Observed(0)
  /// let changes = count.observing([.old, .new])
  /// changes.addHandler { change in print(change.oldValue!, "->", change.newValue!) }
  /// ```
  ///
  /// > Important: Holds the box strongly; registrations follow the rules of ``HandlerSource`` and of
  /// > ``Observed/observe(options:on:_:)-(_,Delivery,_)``.
  public struct Observing: FlattenedHandlerSource {
    /// Each call reports a change of the box's value.
    ///
    /// ```swift
    /// func show(_ change: Observed<Int>.Observing.Payload) { print(change.newValue ?? 0) }
    /// ```
    ///
    /// > Important: A value: the handler may keep it or hand it to another thread.
    public typealias Payload = Change<Value>

    /// The observed box.
    let box: Observed
    /// What each registration reports.
    let options: ObservationOptions

    /// Adds one observer of the box: the store behind `FlattenedHandlerSource`'s `register`.
    ///
    /// - Complexity: O(n) in the number of observers.
    package func addFlattened(_ added: FlattenedRegistration<Payload>) -> HandlerSubscription {
      box.storage.add(options: options, delivery: added.delivery, owner: added.owner, handler: added.handler)
    }
  }
}
