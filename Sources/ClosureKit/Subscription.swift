public import Synchronization

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
public class Subscription: @unchecked Sendable, Hashable {
  // @unchecked Sendable: `word` is atomic; in node mode (below) it is written only under the lock
  // of `source`, and may be read without it.
  //
  // Not `final` (and not `open`): an event's or a control's registration record is itself a
  // subclass (`HandlerNodeCore`), so that a registration allocates one object, not a record and a
  // token.

  /// The source that owns the registration. Strong: a source's internal list is small, and the
  /// user-facing object (the event, the timer) ends every handler from its own deinit.
  let source: any SubscriptionSource
  /// One word for the source, in one of two modes:
  /// - node mode (``init(source:node:)``): `0` or the bits of a reference to the source's record of
  ///   the registration, retained by hand (see ``node``); bit 0 is clear, as in any object address;
  /// - state mode (a subclass that is the source's record of the registration): state bits of the
  ///   source's own, with bit 0 always set.
  @usableFromInline final let word: Atomic<Int>

  package convenience init(source: any SubscriptionSource, node: AnyObject?) {
    self.init(source: source, word: node.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0)
  }

  /// The one designated initialiser: `word` is `0` or a retained reference's bits (node mode), or,
  /// for a subclass that is its source's record of the registration, state bits with bit 0 set
  /// (state mode).
  ///
  /// Internal, like the subclasses, which get unimplemented-initialiser stubs for it: a `package`
  /// one makes the compiler route their stub through a vtable thunk that it reports as infinite
  /// recursion.
  init(source: any SubscriptionSource, word: Int) {
    self.source = source
    self.word = Atomic(word)
  }

  deinit {
    // Without a node there is nothing for the source to forget: skipping the call saves the common
    // token dropped after `cancel()` a lock section. Once it is `0`, no source touches this token
    // again (a source clears it last, under its lock). In state mode there is no node.
    let current = word.load(ordering: .acquiring)
    guard current != 0, current & 1 == 0 else { return }
    source.subscriptionWillDeinit(self)
    // Read again: the source may have taken the reference while this deinit waited for its lock.
    Self.reference(word.exchange(0, ordering: .acquiringAndReleasing))?.release()
  }

  /// Sets the ``NodeBits/ended`` bit, in state mode. Returns `true` for the one caller that set it.
  @inlinable
  final func claimEnd() -> Bool {
    // One atomic OR (a bit test-and-set on x86), not a load and a compare-and-swap loop: setting
    // the bit again is harmless, and the old value says who set it first.
    word.bitwiseOr(NodeBits.ended, ordering: .acquiringAndReleasing).oldValue & NodeBits.ended == 0
  }

  /// The reference whose bits are `bits`, in node mode.
  private static func reference(_ bits: Int) -> Unmanaged<AnyObject>? {
    UnsafeRawPointer(bitPattern: bits).map { Unmanaged.fromOpaque($0) }
  }

  /// The source's record of this registration; `nil` once it has ended. Read and written under
  /// the lock of `source`. Node mode only.
  package final var node: AnyObject? {
    get { unretainedNode?.takeUnretainedValue() }
    set {
      let bits = newValue.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
      Self.reference(word.exchange(bits, ordering: .acquiringAndReleasing))?.release()
    }
  }

  /// ``node`` without a retain; valid while the source's lock is held. Node mode only.
  package final var unretainedNode: Unmanaged<AnyObject>? {
    Self.reference(word.load(ordering: .acquiring))
  }

  /// Clears ``node`` and hands its reference to the caller, who then owns it (under the source's
  /// lock; release it after unlocking, as its release may be the last). Node mode only.
  package final func takeNode() -> AnyObject? {
    Self.reference(word.exchange(0, ordering: .acquiringAndReleasing))?.takeRetainedValue()
  }

  /// Whether ``node`` is set; may be read without the source's lock. Once `false`, it stays so:
  /// a source never sets a node again after clearing it. Node mode only.
  package final var hasNode: Bool {
    word.load(ordering: .acquiring) != 0
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
    self.init(source: ClosureSubscriptionSource(onCancel), word: 0)
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
  public final func cancel() {
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
  public final var isCancelled: Bool {
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
  public final consuming func store(in bag: SubscriptionBag) {
    bag.insert(self)
  }

  public static func == (lhs: Subscription, rhs: Subscription) -> Bool {
    lhs === rhs
  }

  public final func hash(into hasher: inout Hasher) {
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
  /// Ends the registrations of `subscriptions`, every one of them this source's, as `cancel(_:)`
  /// would one by one, in order; a source may end them in one critical section.
  func cancel(_ subscriptions: ArraySlice<Subscription>)
}

extension SubscriptionSource {
  package func cancel(_ subscriptions: ArraySlice<Subscription>) {
    for subscription in subscriptions { cancel(subscription) }
  }
}

extension Subscription {
  /// Cancels `subscriptions` in order, each run of tokens of one source in one call to it (an
  /// event ends a run under one lock).
  static func cancel(_ subscriptions: [Subscription]) {
    // Tokens and sources are read in place: no retain and release per token.
    subscriptions.withUnsafeBufferPointer { tokens in
      func source(at index: Int) -> ObjectIdentifier { ObjectIdentifier(tokens[index].source) }
      var start = 0
      while start < tokens.count {
        var end = start + 1
        while end < tokens.count, source(at: end) == source(at: start) { end += 1 }
        if end - start == 1 {
          tokens[start].source.cancel(tokens[start])
        } else {
          tokens[start].source.cancel(subscriptions[start..<end])
        }
        start = end
      }
    }
  }
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
