#if canImport(UIKit)
  public import ClosureKit
  public import Foundation
  import Synchronization

  extension NSObjectProtocol where Self: NSObject {
    /// Observes a key-value-observable property of an Objective-C object, with the core's options
    /// and change type and the delivery of your choice.
    ///
    /// ```swift
    /// let token = scrollView.observe(\.contentOffset, options: [.old, .new], on: .queue(uploads)) { change in
    ///   print(change.oldValue as Any, "->", change.newValue as Any)
    /// }
    /// token.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A property that is KVO-compliant (`@objc dynamic` in Swift, or Objective-C).
    ///   - options: ``ClosureKit/ObservationOptions``: `.new` (the default), `.old`, `.initial`,
    ///     `.prior`, with Key-Value Observing's meaning.
    ///   - delivery: Where the handler runs. Defaults to ``ClosureKit/Delivery/immediate``: on the
    ///     thread that wrote the property, inside the write, as KVO itself does.
    ///   - handler: Receives each change.
    /// - Returns: A token that stops the observation; dropping it does not. The observation also
    ///   ends when the object is deallocated.
    ///
    /// > Important: With `.prior` and a delivery that hops (`.queue`, `.mainActor`), the prior
    /// > callback still carries the value from before the write (`oldValue`), but it runs after the
    /// > write has happened: it tells what the value was, not that the write is still to come. After
    /// > `cancel()` returns no delivery starts, queued ones included. The object retains the
    /// > observation: capture the object weakly in the handler, or the two form a cycle.
    @discardableResult
    public func observe<Value: Sendable>(
      _ keyPath: KeyPath<Self, Value>,
      options: ObservationOptions = [.new],
      on delivery: Delivery = .immediate,
      _ handler: @escaping @Sendable (Change<Value>) -> Void
    ) -> HandlerSubscription {
      let changes = ClosureKit.Event<Change<Value>>()
      let delivered = changes.addHandler(on: delivery, handler)
      let observation = KeyValueObservationBox(
        observe(keyPath, options: Self.keyValueOptions(options)) { _, change in
          changes.send(Change(oldValue: change.oldValue, newValue: change.newValue, isPrior: change.isPrior))
        }
      )
      Association.set(observation, on: self, key: observation.associationKey)
      return HandlerSubscription {
        delivered.cancel()
        observation.invalidate()
      }
    }

    /// Deprecated: use `observing(_:options:).onMainActor.addHandler(_:)`.
    @available(*, deprecated, message: "use observing(_:options:).onMainActor.addHandler(_:)")
    @discardableResult
    public func observe<Value: Sendable>(
      _ keyPath: KeyPath<Self, Value>,
      options: ObservationOptions = [.new],
      on delivery: MainActorDelivery,
      _ handler: @escaping @MainActor @Sendable (Change<Value>) -> Void
    ) -> HandlerSubscription {
      observe(keyPath, options: options, on: .mainActor) { change in
        MainActor.assumeIsolated { handler(change) }
      }
    }

    /// KVO's options for the core's options.
    private static func keyValueOptions(_ options: ObservationOptions) -> NSKeyValueObservingOptions {
      var result: NSKeyValueObservingOptions = []
      if options.contains(.new) { result.insert(.new) }
      if options.contains(.old) { result.insert(.old) }
      if options.contains(.initial) { result.insert(.initial) }
      if options.contains(.prior) { result.insert(.prior) }
      return result
    }
  }

  /// Keeps an `NSKeyValueObservation` alive as an associated object of the observed object; after
  /// `invalidate()` only this empty box stays attached until the object is deallocated.
  final class KeyValueObservationBox: Sendable {
    /// The observation; `nil` once invalidated.
    private let observation: Mutex<NSKeyValueObservation?>

    init(_ observation: NSKeyValueObservation) {
      self.observation = Mutex(observation)
    }

    /// Stops the observation and releases it (and the handler it holds), from any thread.
    func invalidate() {
      observation.withLock { observation in
        observation?.invalidate()
        observation = nil
      }
    }

    /// A key unique to this box, so that several observations can be attached to one object.
    var associationKey: UnsafeRawPointer {
      UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }
  }
#endif
