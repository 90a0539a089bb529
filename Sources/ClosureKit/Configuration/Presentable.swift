/// An object that ``make(_:configure:onDismissRequest:)`` can create: it has an `init()`, can be
/// configured with `configured(_:)` and can request its dismissal.
///
/// ```swift
/// final class EditScreen: Presentable {
///   var title = ""
///   init() {}
///   func doneTapped() { requestDismiss() }
/// }
/// ```
public protocol Presentable: DismissRequesting, Configurable {
  /// Creates an instance with default settings, to be configured by the presenter.
  init()
}

/// Creates an object, configures it and registers the closure that answers its dismiss requests.
///
/// ```swift
/// let editor = make(EditScreen.self) { screen in
///   screen.title = "Rename"
/// } onDismissRequest: { screen in
///   print("dismiss", screen.title)
/// }
/// ```
///
/// - Parameters:
///   - type: The type to create with `init()`.
///   - configure: Runs once on the new object before this returns.
///   - onDismissRequest: Stored on the new object, see ``DismissRequesting/onDismissRequest(_:)``.
/// - Returns: The configured object.
///
/// > Important: Runs on the calling thread. If `configure` throws, the object is not returned and
/// > is released with its closure.
public func make<Presented: Presentable>(
  _ type: Presented.Type,
  configure: (Presented) throws -> Void = { _ in },
  onDismissRequest: @escaping @Sendable (Presented) -> Void
) rethrows -> Presented {
  let presented = type.init()
  try configure(presented)
  presented.onDismissRequest(onDismissRequest)
  return presented
}

/// Creates an object, configures it and registers the closure that answers its dismiss requests,
/// bound to `owner`.
///
/// ```swift
/// let editor = make(EditScreen.self, owner: self) { screen in
///   screen.title = "Rename"
/// } onDismissRequest: { presenter, screen in
///   presenter.close(screen)
/// }
/// ```
///
/// - Parameters:
///   - type: The type to create with `init()`.
///   - owner: The presenter, held weakly and passed back strong.
///   - configure: Runs once on the new object before this returns.
///   - onDismissRequest: Stored on the new object, see
///     ``DismissRequesting/onDismissRequest(owner:_:)``.
/// - Returns: The configured object.
///
/// > Important: Runs on the calling thread. Once `owner` is deallocated, dismiss requests go
/// > unanswered.
public func make<Presented: Presentable, Owner: AnyObject & Sendable>(
  _ type: Presented.Type,
  owner: Owner,
  configure: (Presented) throws -> Void = { _ in },
  onDismissRequest: @escaping @Sendable (Owner, Presented) -> Void
) rethrows -> Presented {
  let presented = type.init()
  try configure(presented)
  presented.onDismissRequest(owner: owner, onDismissRequest)
  return presented
}
