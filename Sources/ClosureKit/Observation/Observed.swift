/// A value that reports every write to closures, with Key-Value Observing's exact, synchronous
/// semantics: a property wrapper for class properties, or a standalone box.
///
/// ```swift
/// final class Player {
///   @Observed var score = 0
/// }
/// let player = Player()
/// player.$score.observe(options: [.old, .new]) { change in
///   print(change.oldValue!, "->", change.newValue!)
/// }
/// player.score += 10            // prints "0 -> 10"
/// player.$score.modify { $0 *= 2 }   // one change: prints "10 -> 20"
///
/// let volume = Observed(0.5)   // the box form
/// volume.value = 0.8
/// ```
///
/// `observe` is the common form; ``observing(_:)`` returns the box's changes as a
/// ``HandlerSource``, for an `owner:`, `once` or the main-actor view:
///
/// ```swift
/// let level = Observed(3)
/// level.observing([.old, .new]).once { change in print("first change:", change.oldValue!, "->", change.newValue!) }
/// ```
///
/// One write is one change: the prior callbacks (if asked for), then the write, then one post
/// callback per observer. Writing an equal value is reported, as in KVO, unless the box was made
/// with `skipsEqualValues: true`. The one exception is contention: writes queued while another
/// thread delivers are delivered together, as one change to the box's latest value.
///
/// > Important: Safe from any thread, and no writer ever waits for another thread's handlers.
/// > Writes are ordered as they are stored, and one thread at a time delivers their callbacks:
/// > each observer sees the changes in write order, and one change's prior and post callbacks
/// > are never interleaved with another's, also with queue delivery. A write made while no other
/// > thread is delivering is one change, whose immediate handlers run on the writing thread,
/// > before it returns, outside any lock: they may read, write (delivered depth-first), observe
/// > or cancel. A write made while another thread is delivering stores the value and returns at
/// > once; that thread delivers it after the changes before it, together with the writes queued
/// > right after it, as one change to the latest value. So two boxes whose handlers write each
/// > other, written from several threads, neither deadlock nor keep handing each other stale
/// > values: the binding settles whether its handlers copy `change.newValue` or the source's
/// > current `value` (see the Observation article).
@propertyWrapper
public final class Observed<Value: Sendable>: Sendable {
  @usableFromInline let storage: ObservedStorage<Value>

  /// Creates the wrapper of `@Observed var name = value`.
  ///
  /// ```swift
  /// final class Settings {
  ///   @Observed var theme = "light"
  /// }
  /// ```
  ///
  /// - Parameter wrappedValue: The initial value.
  public init(wrappedValue: Value) {
    storage = ObservedStorage(wrappedValue, isEqual: nil)
  }

  /// Creates a standalone box.
  ///
  /// ```swift
  /// let progress = Observed(0.0)
  /// progress.observe { print($0.newValue!) }
  /// progress.value = 0.5
  /// ```
  ///
  /// - Parameter value: The initial value.
  public convenience init(_ value: Value) {
    self.init(wrappedValue: value)
  }

  init(wrappedValue: Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
    storage = ObservedStorage(wrappedValue, isEqual: isEqual)
  }

  deinit {
    storage.close()
  }

  /// The value; reading it is the same as reading ``value``, assigning it is one write.
  ///
  /// ```swift
  /// settings.theme = "dark"   // through the property wrapper
  /// ```
  ///
  /// > Important: The same rules as ``value``.
  public var wrappedValue: Value {
    @inlinable get { storage.read() }
    @inlinable set { storage.write(newValue) }
  }

  /// The box itself, so that `$name` offers ``observe(options:on:_:)-(_,Delivery,_)`` and ``modify(_:)``.
  ///
  /// ```swift
  /// settings.$theme.observe { print("theme:", $0.newValue!) }
  /// ```
  public var projectedValue: Observed<Value> {
    self
  }

  /// The current value; every assignment is one write, reported to every observer.
  ///
  /// ```swift
  /// let count = Observed(0)
  /// count.value = 1
  /// print(count.value)   // 1
  /// ```
  ///
  /// > Important: Reading never waits for handlers. When the assignment returns, the value is
  /// > stored (a read returns it, or a later write's value) and, unless another thread was
  /// > delivering this box's changes, every immediate handler has run; otherwise that thread runs
  /// > them soon after, in write order. Inside a prior callback of a write delivered by its own
  /// > thread, a read still returns the old value; inside a post callback, the new one, as long
  /// > as no other thread writes meanwhile (a callback delivered for another thread's write reads
  /// > the latest value: the ``Change`` always carries the write's own values).
  public var value: Value {
    @inlinable get { storage.read() }
    @inlinable set { storage.write(newValue) }
  }

  /// Changes the value in place, as one write.
  ///
  /// ```swift
  /// let count = Observed(0)
  /// count.modify { $0 += 1 }   // one change, 0 -> 1, even with other writers around
  /// ```
  ///
  /// - Parameter body: Mutates the value. It runs on a copy while other threads' writes wait (they
  ///   wait for the body only, never for handlers), so the read-modify-write is atomic; if it
  ///   throws, nothing is written and nobody is told.
  /// - Returns: What `body` returns.
  ///
  /// > Important: The change is delivered as for ``value``: by this thread before `modify`
  /// > returns, or by the thread already delivering this box's changes. `body` should only
  /// > compute: if it waits for another thread that writes this box, or writes another box whose
  /// > `modify` body, on another thread, writes this one, the two wait for each other.
  @inlinable
  public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.modify(body)
  }

  /// Registers a handler that runs for every write.
  ///
  /// ```swift
  /// let count = Observed(0)
  /// let subscription = count.observe(options: [.initial, .new]) { change in
  ///   print("count is", change.newValue!)
  /// }
  /// count.value = 1
  /// subscription.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - options: What to report; see ``ObservationOptions``. Defaults to `[.new]`.
  ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
  ///   - handler: Receives each ``Change``.
  /// - Returns: A token that removes the handler; dropping it does not.
  ///
  /// The same as `observing(options).addHandler(on: delivery, handler)`; ``observing(_:)`` also
  /// offers an `owner:`, `once` and the main-actor view.
  ///
  /// > Important: With ``Delivery/immediate`` the handler runs on the thread that delivers the
  /// > box's changes, outside any lock, in registration order: the writing thread, before the
  /// > write returns, unless another thread is delivering (then that one, see ``Observed``). With
  /// > ``ObservationOptions/initial`` the initial callback runs (or is enqueued) before this
  /// > method returns, or, if another thread is delivering, by that thread before any later
  /// > write's callback. After the token is cancelled no delivery starts, queued ones included.
  ///
  /// - Complexity: O(n) in the number of observers, for the registration and for the
  ///   cancellation.
  @inlinable @discardableResult
  public func observe(
    options: ObservationOptions = [.new],
    on delivery: Delivery = .immediate,
    _ handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> HandlerSubscription {
    storage.add(
      tag: options, once: false, delivery: delivery, site: nil, SourceHandler<NoOwner, Change<Value>>.plain(handler))
  }

  /// The number of handlers that have not ended.
  ///
  /// ```swift
  /// let count = Observed(0)
  /// count.observe { _ in }
  /// assert(count.observerCount == 1)
  /// ```
  ///
  /// - Complexity: O(n) in the number of observers.
  public var observerCount: Int {
    storage.observerCount
  }
}

extension Observed where Value: Equatable {
  /// Creates the wrapper of `@Observed(skipsEqualValues: true) var name = value`.
  ///
  /// ```swift
  /// final class Cursor {
  ///   @Observed(skipsEqualValues: true) var line = 1
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - skipsEqualValues: When `true`, a write of a value equal (`==`) to the current one is not a
  ///     change: no prior callback, no write, no post callback. When `false`, every write is
  ///     reported, as in KVO (the default of the other initialisers).
  public convenience init(wrappedValue: Value, skipsEqualValues: Bool) {
    self.init(wrappedValue: wrappedValue, isEqual: skipsEqualValues ? Self.equality : nil)
  }

  /// Creates a standalone box that may skip equal writes.
  ///
  /// ```swift
  /// let line = Observed(1, skipsEqualValues: true)
  /// line.observe { print($0.newValue!) }
  /// line.value = 1   // prints nothing
  /// ```
  ///
  /// - Parameters:
  ///   - value: The initial value.
  ///   - skipsEqualValues: When `true`, writing an equal value reports nothing.
  public convenience init(_ value: Value, skipsEqualValues: Bool) {
    self.init(wrappedValue: value, isEqual: skipsEqualValues ? Self.equality : nil)
  }

  /// `==`, as the comparison of a box that skips equal writes.
  static var equality: @Sendable (Value, Value) -> Bool {
    { lhs, rhs in lhs == rhs }
  }
}
