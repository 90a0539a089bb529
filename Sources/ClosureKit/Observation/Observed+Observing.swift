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
  public struct Observing: HandlerSource {
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

    /// Registers one observer of the box in its registry, which keeps `once` and the owner itself
    /// (the nodes of every registry host).
    ///
    /// ```swift
    /// let count = Observed(0)
    /// let token = count.observing().register(once: true, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Change<Int>>.plain { print($0.newValue!) })
    /// ```
    ///
    /// - Parameters:
    ///   - once: Whether the handler ends after its first callback (prior and initial included).
    ///   - delivery: Where the handler runs.
    ///   - file: The `#fileID` of the registration, for `HandlerDiagnostics`.
    ///   - line: The `#line` of the registration.
    ///   - handler: The closure, with its owner if it has one.
    /// - Returns: A token that removes the handler; dropping it does not.
    ///
    /// > Important: The rules of ``Observed/observe(options:on:_:)-(_,Delivery,_)``; call
    /// > `addHandler` or `once` instead.
    ///
    /// - Complexity: O(n) in the number of observers.
    public func register<Owner: AnyObject & Sendable>(
      once: Bool,
      on delivery: consuming Delivery,
      file: StaticString,
      line: UInt,
      _ handler: consuming SourceHandler<Owner, Payload>
    ) -> HandlerSubscription {
      let site = RegistrationSite(fileID: file, line: line)
      return box.storage.add(tag: options, once: once, delivery: delivery, site: site, handler)
    }
  }
}
