/// Selects the overloads that take a `@MainActor` handler.
///
/// ```swift
/// @MainActor final class Screen {
///   var title = ""
///   func bind(to renamed: Event<String>) {
///     renamed.addHandler(on: .mainActor) { @MainActor name in self.title = name }
///   }
/// }
/// ```
///
/// Write `@MainActor` in the closure: an unannotated closure picks the ``Delivery/mainActor``
/// overload, whose handler is not isolated.
///
/// > Important: Delivery is the same as ``Delivery/mainActor``: asynchronous on the main actor, in
/// > send order, and never started after the token is cancelled.
public struct MainActorDelivery: Sendable {
  /// Runs the `@MainActor` handler on the main actor, asynchronously.
  ///
  /// ```swift
  /// event.addHandler(on: .mainActor) { @MainActor value in print(value) }
  /// ```
  public static let mainActor = MainActorDelivery()
}
