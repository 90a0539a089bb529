public import Synchronization

/// One handler registered on an ``Observed``, and the token of the registration, which it is (a
/// ``Subscription`` subclass, like an event's ``HandlerNode``): no token object of its
/// own, and no reference between the two to clear. Not generic, so that registration, cancellation
/// and removal run as concrete code in an unspecialised build of the storage (they looked up
/// generic metadata at every step, which was most of their time).
///
/// The handler itself is not here but in an ``ObservedHandler`` that the registry's entries hold
/// (``ObserverEntry``), so that what it captured is released when it leaves the registry (and every
/// list a write reads), even while its token is kept.
///
/// `@unchecked Sendable`: everything is immutable or atomic (`state`).
@usableFromInline
class ObservedObserver: Subscription, @unchecked Sendable {
  /// What the handler asked to be told.
  @usableFromInline final let options: ObservationOptions
  /// Where the handler runs.
  @usableFromInline final let delivery: Delivery

  /// Whether the handler still runs; written only under the storage's mutex (see
  /// ``claimEndLocked()``), read anywhere.
  @usableFromInline final let state = Atomic<HandlerState>(.live)
  /// Whether the handler was registered with an owner (an ``OwnedObservedObserver``).
  @usableFromInline final let isOwnerBound: Bool

  init(
    source: any SubscriptionSource,
    options: ObservationOptions,
    delivery: __owned Delivery,
    isOwnerBound: Bool = false
  ) {
    self.options = options
    self.delivery = delivery
    self.isOwnerBound = isOwnerBound
    super.init(source: source)
  }

  /// Whether the handler has been ended: cancelled, owner found gone, or the box gone.
  @inlinable final var hasEnded: Bool {
    state.load(ordering: .acquiring) == .ended
  }

  /// Whether the handler's owner has been deallocated.
  @inlinable final var isOrphaned: Bool {
    isOwnerBound && isOwnerGone
  }

  /// Whether the handler will not run again.
  @inlinable final var isEnded: Bool {
    hasEnded || isOrphaned
  }

  /// Ends the handler; `true` for the one caller that ended it. Only under the storage's mutex:
  /// every writer of the state holds it (ending is its only change after registration), so a load
  /// and a store do what an atomic read-modify-write would, for less. Readers outside the mutex (a
  /// delivery, `isCancelled`) load the state atomically.
  @inlinable final func claimEndLocked() -> Bool {
    guard state.load(ordering: .relaxed) == .live else { return false }
    state.store(.ended, ordering: .releasing)
    return true
  }

  /// Whether the owner has been deallocated; `false` for an observer without one.
  @usableFromInline
  var isOwnerGone: Bool { false }
}

/// A handler registered on an ``Observed`` with an owner: the owner's weak reference, which an
/// observer without one does not make.
///
/// `@unchecked Sendable`: `owner` is a weak reference, which the runtime reads and clears
/// atomically; the rest as ``ObservedObserver``.
@usableFromInline
final class OwnedObservedObserver: ObservedObserver, @unchecked Sendable {
  /// Held weakly; the handler ends when it is deallocated.
  @usableFromInline weak let owner: (any AnyObject & Sendable)?

  init(
    source: any SubscriptionSource,
    options: ObservationOptions,
    delivery: __owned Delivery,
    owner: __shared any AnyObject & Sendable
  ) {
    self.owner = owner
    super.init(source: source, options: options, delivery: delivery, isOwnerBound: true)
  }

  @usableFromInline
  override var isOwnerGone: Bool { owner == nil }
}

/// The handler of a registration on an ``Observed``, in an object of its own: a write calls it as
/// a constant of a class, in place, where a closure read from an array's memory is copied (a retain
/// and a release of its captures per call, a third of a write to one observer).
///
/// Not generic, so that the registry's entries are not; every one is an ``ObservedHandler`` of the
/// storage's value type. `@unchecked Sendable`: immutable.
@usableFromInline
class ObservedHandlerCore: @unchecked Sendable {
  @usableFromInline init() {}
}

/// The handler of a registration on an ``Observed<Value>``.
///
/// `@unchecked Sendable`: immutable, and the closure is `@Sendable`.
@usableFromInline
final class ObservedHandler<Value: Sendable>: ObservedHandlerCore, @unchecked Sendable {
  /// The user's handler (owner-bound handlers are wrapped to hold the owner weakly).
  @usableFromInline let call: @Sendable (Change<Value>) -> Void

  @inlinable
  init(_ call: @escaping @Sendable (Change<Value>) -> Void) {
    self.call = call
  }
}

/// A registered observer with its handler, as the registry and the lists keep them.
@usableFromInline
struct ObserverEntry {
  /// The observer, which is also the registration's token.
  @usableFromInline let observer: ObservedObserver
  /// The handler.
  @usableFromInline let handler: ObservedHandlerCore

  @inlinable
  init(observer: ObservedObserver, handler: ObservedHandlerCore) {
    self.observer = observer
    self.handler = handler
  }

  /// The observer of the entry at `entry`, unretained: valid while the entries that hold it live.
  /// Read through the typed pointer (an addressor), a borrow: no raw offsets.
  @inlinable
  static func observer(at entry: UnsafePointer<ObserverEntry>) -> Unmanaged<ObservedObserver> {
    Unmanaged.passUnretained(entry.pointee.observer)
  }

  /// The handler of the entry at `entry`, unretained, likewise.
  @inlinable
  static func handler(at entry: UnsafePointer<ObserverEntry>) -> Unmanaged<ObservedHandlerCore> {
    Unmanaged.passUnretained(entry.pointee.handler)
  }
}
