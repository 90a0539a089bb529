extension Observed {
  /// Deprecated: use `observing(_:options:).addHandler(on:_:)` with several key paths.
  @available(*, deprecated, message: "use observing(_:options:).addHandler(on:_:)")
  @discardableResult
  public func observe<each Field: Equatable & Sendable>(
    _ keyPaths: repeat any KeyPath<Value, each Field> & Sendable,
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (_ keyPath: PartialKeyPath<Value>, _ change: Change<any Sendable>) -> Void
  ) -> HandlerSubscription {
    let report = Self.fieldReporter(repeat each keyPaths, options: options, function: "observe(_:options:on:_:)")
    return observe(options: Self.boxOptions(for: options), on: delivery) { change in report(change, handler) }
  }

  /// Deprecated: use `observing(_:options:).addHandler(owner:on:_:)` with several key paths.
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
  ) -> HandlerSubscription {
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
