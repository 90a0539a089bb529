import Synchronization

/// A token that removes one registered handler.
///
/// Every registration in ClosureKit returns a `Subscription`. Dropping it does **not** end the
/// handler (as with UIKit's `addAction(_:for:)`); keep it only to remove the handler later, or put
/// it in a ``SubscriptionBag`` to tie several handlers to one lifetime.
///
/// ```swift
/// let tapped = Event<Int>()
/// let subscription = tapped.addHandler { count in print("tapped", count) }
/// subscription.cancel()   // the handler will not run again; its captures are released
/// ```
///
/// You can also wrap your own clean-up in a subscription:
///
/// ```swift
/// let subscription = Subscription { print("cleaned up") }
/// ```
///
/// > Important: `cancel()` is idempotent and may be called from any thread, also from inside the
/// > handler it removes. After it returns, no delivery of that handler *starts*, including
/// > deliveries already queued on a `DispatchQueue`; a call already running on another thread may
/// > finish.
public final class Subscription: @unchecked Sendable, Hashable {
  // @unchecked Sendable: `node` is written only under the lock of `source`; its storage is atomic
  // so that `hasNode` may be read without that lock.

  /// The source that owns the registration. Strong: a source's internal list is small, and the
  /// user-facing object (the event, the timer) ends every handler from its own deinit.
  let source: any SubscriptionSource
  /// The strong reference behind `node`, retained by hand.
  private let nodeStorage: Atomic<Unmanaged<AnyObject>?>

  package init(source: any SubscriptionSource, node: AnyObject?) {
    self.source = source
    self.nodeStorage = Atomic(node.map { Unmanaged.passRetained($0) })
  }

  deinit {
    // Without a node there is nothing for the source to forget: skipping the call saves the common
    // token dropped after `cancel()` a lock section. Once it is `nil`, no source touches this token
    // again (a source clears it last, under its lock).
    guard nodeStorage.load(ordering: .acquiring) != nil else { return }
    source.subscriptionWillDeinit(self)
    // Read again: the source may have taken the reference while this deinit waited for its lock.
    nodeStorage.exchange(nil, ordering: .acquiringAndReleasing)?.release()
  }

  /// The source's record of this registration; `nil` once it has ended. Read and written under
  /// the lock of `source`.
  package var node: AnyObject? {
    get { nodeStorage.load(ordering: .acquiring)?.takeUnretainedValue() }
    set {
      let old = nodeStorage.exchange(newValue.map { Unmanaged.passRetained($0) }, ordering: .acquiringAndReleasing)
      old?.release()
    }
  }

  /// ``node`` without a retain; valid while the source's lock is held.
  package var unretainedNode: Unmanaged<AnyObject>? {
    nodeStorage.load(ordering: .acquiring)
  }

  /// Clears ``node`` and hands its reference to the caller, who then owns it (under the source's
  /// lock; release it after unlocking, as its release may be the last).
  package func takeNode() -> AnyObject? {
    nodeStorage.exchange(nil, ordering: .acquiringAndReleasing)?.takeRetainedValue()
  }

  /// Whether ``node`` is set; may be read without the source's lock. Once `false`, it stays so:
  /// a source never sets a node again after clearing it.
  package var hasNode: Bool {
    nodeStorage.load(ordering: .acquiring) != nil
  }

  /// Creates a subscription that runs `onCancel` once, the first time it is cancelled.
  ///
  /// ```swift
  /// let subscription = Subscription { connection.close() }
  /// subscription.store(in: bag)
  /// ```
  ///
  /// - Parameter onCancel: Runs exactly once, on the thread that first calls ``cancel()``.
  ///
  /// > Important: `onCancel` is released right after it runs. It is never run if the
  /// > subscription is never cancelled: dropping the token does not cancel it.
  public convenience init(onCancel: @escaping @Sendable () -> Void) {
    self.init(source: ClosureSubscriptionSource(onCancel), node: nil)
  }

  /// Removes the handler. Idempotent; safe from any thread and from inside the handler.
  ///
  /// ```swift
  /// subscription.cancel()
  /// subscription.cancel()   // no effect
  /// ```
  ///
  /// > Important: When this returns, no new delivery of the handler starts, and what the handler
  /// > captured has been released, unless a send on another thread is running right now (then it
  /// > is released when that send returns) or deliveries were already queued on a `DispatchQueue`
  /// > (then it is released when those are dropped, unrun).
  public func cancel() {
    source.cancel(self)
  }

  /// Whether the handler has ended: cancelled, run as a one-shot, its owner deallocated, or its
  /// source deallocated.
  ///
  /// ```swift
  /// let subscription = event.once { print($0) }
  /// event.send(1)
  /// assert(subscription.isCancelled)
  /// ```
  public var isCancelled: Bool {
    source.isCancelled(self)
  }

  /// Adds this subscription to `bag`, so it is cancelled when the bag is cancelled or deinitialised.
  ///
  /// ```swift
  /// let bag = SubscriptionBag()
  /// event.addHandler { print($0) }.store(in: bag)
  /// ```
  ///
  /// - Parameter bag: The bag that will cancel this subscription.
  public func store(in bag: SubscriptionBag) {
    bag.insert(self)
  }

  public static func == (lhs: Subscription, rhs: Subscription) -> Bool {
    lhs === rhs
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

/// What a ``Subscription`` talks to: the event, control, timer or other source that owns the
/// registration. `package` so that ClosureKit's other modules can build their own sources.
package protocol SubscriptionSource: AnyObject, Sendable {
  /// Ends the registration recorded in `subscription.node`. Idempotent.
  func cancel(_ subscription: Subscription)
  /// Whether the registration recorded in `subscription.node` has ended.
  func isCancelled(_ subscription: Subscription) -> Bool
  /// Called from the token's deinit, while `subscription.node` is set: forget any reference back
  /// to `subscription`.
  func subscriptionWillDeinit(_ subscription: Subscription)
}

/// The source behind ``Subscription/init(onCancel:)``: runs a closure once.
final class ClosureSubscriptionSource: SubscriptionSource {
  /// The clean-up closure; `nil` once it has run.
  private let onCancel: Locked<(@Sendable () -> Void)?>

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Locked(onCancel)
  }

  func cancel(_ subscription: Subscription) {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  func isCancelled(_ subscription: Subscription) -> Bool {
    onCancel.withLock { $0 == nil }
  }

  func subscriptionWillDeinit(_ subscription: Subscription) {}
}
