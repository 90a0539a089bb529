extension Observed {
  /// Registers one handler for several fields of the value, told which field changed: the
  /// several-key-path form of ``observe(options:on:_:)-(_,Delivery,_)`` (BlocksKit's
  /// `bk_addObserverForKeyPaths:task:`).
  ///
  /// ```swift
  /// struct Layout: Sendable { var width = 0; var title = "" }
  /// let layout = Observed(Layout())
  /// layout.observe(\.width, \.title, options: [.old, .new]) { keyPath, change in
  ///   if keyPath == \Layout.width { print("width", change.oldValue!, "->", change.newValue!) }
  ///   if keyPath == \Layout.title { print("title is now", change.newValue!) }
  /// }
  /// layout.modify { $0.width = 320 }   // prints "width 0 -> 320"
  /// ```
  ///
  /// After each write, the handler runs once for each key path whose field differs (`!=`) between
  /// the value before and after the write, in the order the key paths are given; a write that
  /// changes none of them calls nothing. With ``ObservationOptions/initial`` it runs once per key
  /// path at registration.
  ///
  /// - Parameters:
  ///   - keyPaths: One or more fields of `Value`, each `Equatable`.
  ///   - options: What to report; ``ObservationOptions/prior`` is not offered (which fields a
  ///     write changes is known only after it). Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives the key path that changed, as a `PartialKeyPath<Value>`, and the
  ///     field's change; cast its values to the field's type (`change.newValue as? Int`).
  /// - Returns: One token for every key path: cancelling it ends the whole registration; dropping
  ///   it does not.
  ///
  /// > Important: One registration on the box, with the threading of
  /// > ``observe(options:on:_:)-(_,Delivery,_)``: the calls for one write run one after another,
  /// > in the same place (the delivering thread, the queue, the main actor). No key path, or
  /// > `.prior` in `options`, stops the program with a message naming the argument.
  ///
  /// - Complexity: O(k) comparisons per write, k being the number of key paths.
  @available(*, deprecated, message: "use observing(_:options:).addHandler(on:_:)")
  @discardableResult
  public func observe<each Field: Equatable & Sendable>(
    _ keyPaths: repeat any KeyPath<Value, each Field> & Sendable,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (_ keyPath: PartialKeyPath<Value>, _ change: Change<any Sendable>) -> Void
  ) -> Subscription {
    let report = Self.fieldReporter(repeat each keyPaths, options: options, function: "observe(_:options:on:_:)")
    return observe(options: Self.boxOptions(for: options), on: delivery) { change in report(change, handler) }
  }

  /// Registers one handler for several fields of the value, bound to `owner`: it ends when
  /// `owner` is deallocated and receives it as a strong parameter.
  ///
  /// ```swift
  /// struct Layout: Sendable { var width = 0; var title = "" }
  /// final class Header: Sendable { func relayout() {} }
  /// let layout = Observed(Layout())
  /// let header = Header()
  /// layout.observe(\.width, \.title, owner: header) { header, keyPath, _ in header.relayout() }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPaths: One or more fields of `Value`, each `Equatable`.
  ///   - owner: Held weakly; the registration ends when it is deallocated.
  ///   - options: What to report, without ``ObservationOptions/prior``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives the owner, the key path that changed and the field's change.
  /// - Returns: One token for every key path; dropping it does not end the registration.
  ///
  /// > Important: The same rules as ``observe(_:options:on:_:)``. Once the owner is gone the
  /// > handler is never called again; what it captured is released no later than the next write.
  @available(*, deprecated, message: "use observing(_:options:).addHandler(owner:on:_:)")
  @discardableResult
  public func observe<Owner: AnyObject & Sendable, each Field: Equatable & Sendable>(
    _ keyPaths: repeat any KeyPath<Value, each Field> & Sendable,
    owner: Owner,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler:
      @escaping @Sendable (
        _ owner: Owner, _ keyPath: PartialKeyPath<Value>, _ change: Change<any Sendable>
      ) -> Void
  ) -> Subscription {
    let report = Self.fieldReporter(
      repeat each keyPaths, options: options, function: "observe(_:owner:options:on:_:)")
    return observing(Self.boxOptions(for: options)).addHandler(owner: owner, on: delivery) { owner, change in
      report(change) { keyPath, fieldChange in handler(owner, keyPath, fieldChange) }
    }
  }

  /// What the box registration asks for: the old and the new value always (to compare the
  /// fields), the initial callback if asked.
  static func boxOptions(for options: ObservationOptions) -> ObservationOptions {
    options.contains(.initial) ? [.initial, .old, .new] : [.old, .new]
  }

  /// Checks the arguments and returns the function that turns one change of the box into the
  /// changes of the fields, in key-path order.
  static func fieldReporter<each Field: Equatable & Sendable>(
    _ keyPaths: repeat any KeyPath<Value, each Field> & Sendable,
    options: ObservationOptions,
    function: StaticString
  ) -> @Sendable (Change<Value>, (PartialKeyPath<Value>, Change<any Sendable>) -> Void) -> Void {
    if options.contains(.prior) {
      failPrecondition(
        "\(function): the argument `options` contains .prior, which the several-key-path form does not offer")
    }
    var fields: [@Sendable (Change<Value>, (PartialKeyPath<Value>, Change<any Sendable>) -> Void) -> Void] = []
    for keyPath in repeat each keyPaths {
      fields.append(fieldChange(keyPath, options: options))
    }
    if fields.isEmpty { failPrecondition("\(function): the argument `keyPaths` is empty; pass at least one key path") }
    return { [fields] change, report in
      for field in fields { field(change, report) }
    }
  }

  /// Reports the change of one field, if it changed (or for the initial callback).
  private static func fieldChange<Field: Equatable & Sendable>(
    _ keyPath: any KeyPath<Value, Field> & Sendable,
    options: ObservationOptions
  ) -> @Sendable (Change<Value>, (PartialKeyPath<Value>, Change<any Sendable>) -> Void) -> Void {
    let wantsOld = options.contains(.old)
    let wantsNew = options.contains(.new)
    return { change, report in
      guard let new = change.newValue?[keyPath: keyPath] else { return }
      guard let oldValue = change.oldValue else {
        // The initial callback: the box's has no old value; a write's always has one.
        report(keyPath, Change(newValue: wantsNew ? new : nil))
        return
      }
      let old = oldValue[keyPath: keyPath]
      guard old != new else { return }
      report(keyPath, Change(oldValue: wantsOld ? old : nil, newValue: wantsNew ? new : nil))
    }
  }
}
