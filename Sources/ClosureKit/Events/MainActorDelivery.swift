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
/// Deprecated, with every overload that takes it (``Event``, ``ControlActions``, ``Observed``, the
/// NotificationCenter adapter, the timers and the UIKit layer); all are removed in the next major
/// release. Those overloads were chosen by writing `@MainActor` in the closure, so the meaning of
/// `on: .mainActor` depended on the closure's annotation; the main-actor view has one meaning.
///
/// > Important: Delivery is the same as ``Delivery/mainActor``: asynchronous on the main actor, in
/// > send order, and never started after the token is cancelled.
@available(*, deprecated, message: "use source.onMainActor.addHandler { ... } (or ClosureTimer.onMainActor)")
public struct MainActorDelivery: Sendable {
  /// Runs the `@MainActor` handler on the main actor, asynchronously.
  ///
  /// ```swift
  /// event.onMainActor.addHandler { value in print(value) }   // the replacement of `on: .mainActor`
  /// ```
  public static let mainActor = MainActorDelivery()
}
