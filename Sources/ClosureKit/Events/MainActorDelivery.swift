/// Selects the overloads that take a `@MainActor` handler: the spelling that the main-actor view,
/// ``HandlerSource/onMainActor``, replaces.
///
/// ```swift
/// @MainActor final class Screen {
///   var title = ""
///   func bind(to renamed: Event<String>) {
///     renamed.onMainActor.addHandler { name in self.title = name }   // instead of `on: MainActorDelivery.mainActor`
///   }
/// }
/// ```
///
/// Every overload of ``Event``, ``ControlActions``, ``Observed`` and the NotificationCenter adapter
/// that takes it is deprecated; the type itself will be deprecated with the last overloads that take
/// it (timers and the UIKit layer), and removed one release later.
///
/// > Important: Delivery is the same as ``Delivery/mainActor``: asynchronous on the main actor, in
/// > send order, and never started after the token is cancelled.
public struct MainActorDelivery: Sendable {
  /// Runs the `@MainActor` handler on the main actor, asynchronously.
  ///
  /// ```swift
  /// event.onMainActor.addHandler { value in print(value) }   // the replacement of `on: .mainActor`
  /// ```
  public static let mainActor = MainActorDelivery()
}
