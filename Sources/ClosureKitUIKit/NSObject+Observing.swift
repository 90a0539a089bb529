#if canImport(UIKit)
  public import ClosureKit
  public import Foundation
  import Synchronization

  extension NSObjectProtocol where Self: NSObject {
    /// A key-value-observable property with `options`, as a ``ClosureKit/HandlerSource``:
    /// `addHandler`, `once`, the `owner:` variants and the main-actor view, each observing as
    /// `observe(_:options:on:_:)` does.
    ///
    /// ```swift
    /// player.observing(\.rate, options: [.initial, .new]).onMainActor.addHandler(owner: self) { screen, change in
    ///   screen.showRate(change.newValue ?? 0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A property that is KVO-compliant (`@objc dynamic` in Swift, or Objective-C).
    ///   - options: ``ClosureKit/ObservationOptions``: `.new` (the default), `.old`, `.initial`,
    ///     `.prior`, with Key-Value Observing's meaning.
    /// - Returns: A source whose handlers receive each ``ClosureKit/Change``.
    ///
    /// > Important: Each registration is one KVO observation with the rules of
    /// > `observe(_:options:on:_:)`: with ``ClosureKit/Delivery/immediate`` the handler runs on the
    /// > writing thread, inside the write; the main-actor view's handlers run on the main actor,
    /// > always after the write. The source holds the object strongly; an observation is an
    /// > associated object of the object, so capture the object weakly in a handler.
    public func observing<Value: Sendable>(
      _ keyPath: KeyPath<Self, Value>,
      options: ObservationOptions = [.new]
    ) -> KeyValueObserving<Self, Value> {
      KeyValueObserving(root: self, keyPath: keyPath, options: options)
    }
  }

  /// A key-value-observable property as a ``ClosureKit/HandlerSource``: from
  /// `observing(_:options:)` on an `NSObject`.
  ///
  /// ```swift
  /// let rates = player.observing(\.rate, options: [.old, .new])
  /// rates.once { change in print("first change from", change.oldValue ?? 0) }
  /// ```
  ///
  /// > Important: Registrations follow the rules of `observe(_:options:on:_:)`.
  public struct KeyValueObserving<Root: NSObject, Value: Sendable>: HandlerSource, @unchecked Sendable {
    // @unchecked Sendable: the fields are immutable; the source only ever starts KVO observations
    // of `root` (what `observe(_:options:on:_:)` does, from any thread, on a non-Sendable object
    // today), and a key path is an immutable object.

    /// The observed object.
    let root: Root
    /// The property watched.
    let keyPath: KeyPath<Root, Value>
    /// What each registration reports.
    let options: ObservationOptions

    /// Starts one observation for `handler`: the primitive behind `addHandler` and `once`.
    ///
    /// ```swift
    /// let token = player.observing(\.rate).register(once: false, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Change<Double>>.plain { print($0.newValue ?? 0) })
    /// ```
    ///
    /// - Parameters:
    ///   - once: Whether the handler ends after its first call.
    ///   - delivery: Where the handler runs.
    ///   - file: The `#fileID` of the registration.
    ///   - line: The `#line` of the registration.
    ///   - handler: The closure, with its owner if it has one.
    /// - Returns: A token that stops the observation; dropping it does not.
    ///
    /// > Important: The rules of `observe(_:options:on:_:)`.
    public func register<Owner: AnyObject & Sendable>(
      once: Bool,
      on delivery: consuming Delivery,
      file: StaticString,
      line: UInt,
      _ handler: consuming SourceHandler<Owner, Change<Value>>
    ) -> HandlerSubscription {
      // The changes go through an Event, which gives the delivery, the owner and `once`.
      let changes = ClosureKit.Event<Change<Value>>()
      let delivered = changes.register(once: once, on: delivery, file: file, line: line, handler)
      // When the handler has ended with a change (a `once` handler ran, or its owner is gone),
      // the KVO observation ends too instead of staying attached until the token is cancelled.
      // Held weakly: the observation's closure must not keep its own token (a cycle through the
      // object's associated observation); the returned token holds it.
      let observation = WeakTokenSlot()
      let observed = root.observe(keyPath, options: options) { change in
        changes.send(change)
        if changes.handlerCount == 0 { observation.token?.cancel() }
      }
      observation.token = observed
      // An `.initial` change is sent inside `observe`, before the observation is stored above.
      if changes.handlerCount == 0 { observed.cancel() }
      return HandlerSubscription {
        delivered.cancel()
        observed.cancel()
      }
    }
  }

  /// A token held weakly, for the closure of the observation it ends; any thread.
  final class WeakTokenSlot: Sendable {
    private struct Reference {
      weak var token: HandlerSubscription?
    }

    private let slot = Mutex(Reference())

    var token: HandlerSubscription? {
      get { slot.withLock { $0.token } }
      set { slot.withLock { $0.token = newValue } }
    }
  }
#endif
