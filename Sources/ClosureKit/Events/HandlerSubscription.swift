import Synchronization

/// A token that removes one registered handler.
///
/// Every registration in ClosureKit returns a `HandlerSubscription`. Dropping it does **not** end the
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
/// let subscription = HandlerSubscription { print("cleaned up") }
/// ```
///
/// > Important: `cancel()` is idempotent and may be called from any thread, also from inside the
/// > handler it removes. After it returns, on any thread, no delivery of that handler *starts*,
/// > including deliveries already queued on a `DispatchQueue`; a call already running on another
/// > thread may finish. Two threads cancelling at once both return only once the handler has
/// > ended and its captures are released.
public class HandlerSubscription: @unchecked Sendable, Hashable {
  // @unchecked Sendable: its one stored property is immutable and `Sendable`; a subclass states its
  // own invariant (`HandlerNode`, the node of every registry: `Event`, `ControlActions`, `Observed`).
  //
  // Not `final` (and not `open`): an event's or a control's registration record is itself a
  // subclass (`HandlerNode`), so that a registration allocates one object, not a record and a
  // token.

  /// The source that owns the registration. Strong: a source's internal list is small, and the
  /// user-facing object (the event, the timer) ends every handler from its own deinit.
  let source: any SubscriptionSource

  /// A token whose `cancel()` and `isCancelled` are answered by `source`.
  ///
  /// Internal, like the subclasses, which get unimplemented-initialiser stubs for it: a `package`
  /// one makes the compiler route their stub through a vtable thunk that it reports as infinite
  /// recursion.
  init(source: any SubscriptionSource) {
    self.source = source
  }

  /// A token whose `cancel()` and `isCancelled` are answered by `source`, for ClosureKit's other
  /// modules; `node` is always `nil` (the token's former node mode is gone).
  package convenience init(source: any SubscriptionSource, node: Never?) {
    self.init(source: source)
  }

  /// Creates a subscription that runs `onCancel` once, the first time it is cancelled.
  ///
  /// ```swift
  /// let subscription = HandlerSubscription { connection.close() }
  /// subscription.store(in: bag)
  /// ```
  ///
  /// - Parameter onCancel: Runs exactly once, on the thread that first calls ``cancel()``; a
  ///   second thread's `cancel()` returns once it has run.
  ///
  /// > Important: `onCancel` is released right after it runs. It is never run if the
  /// > subscription is never cancelled: dropping the token does not cancel it.
  public convenience init(onCancel: @escaping @Sendable () -> Void) {
    self.init(source: ClosureSubscriptionSource(onCancel))
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
  /// > (then it is released when those are dropped, unrun). This holds on every thread that calls
  /// > it: a call that finds another thread cancelling the same handler waits for it. A call made
  /// > by code that a cancel runs (an `onCancel` closure, the deinit of a released capture) does
  /// > not wait, so that a cancel never waits for itself.
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

  public static func == (lhs: HandlerSubscription, rhs: HandlerSubscription) -> Bool {
    lhs === rhs
  }

  public final func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

/// What a ``HandlerSubscription`` talks to: the event, control, timer or other source that owns the
/// registration. `package` so that ClosureKit's other modules can build their own sources.
package protocol SubscriptionSource: AnyObject, Sendable {
  /// Ends the registration of `subscription`, one of this source's tokens. Idempotent.
  func cancel(_ subscription: HandlerSubscription)
  /// Whether the registration of `subscription` has ended.
  func isCancelled(_ subscription: HandlerSubscription) -> Bool
  /// Ends the registrations of `subscriptions`, every one of them this source's, as `cancel(_:)`
  /// would one by one, in order; a source may end them in one critical section.
  func cancel(_ subscriptions: ArraySlice<HandlerSubscription>)
}

extension SubscriptionSource {
  package func cancel(_ subscriptions: ArraySlice<HandlerSubscription>) {
    for subscription in subscriptions { cancel(subscription) }
  }
}

extension HandlerSubscription {
  /// Cancels `subscriptions` in order, each run of tokens of one source in one call to it (an
  /// event ends a run under one lock).
  static func cancel(_ subscriptions: [HandlerSubscription]) {
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

/// The source behind ``HandlerSubscription/init(onCancel:)``: runs a closure once.
///
/// The closure goes `pending` → `running` (one caller has taken it) → `done`; a second caller
/// waits for the first (``CancelGate``), and `isCancelled` reads `true` once it has run.
final class ClosureSubscriptionSource: SubscriptionSource {
  /// The state of the clean-up closure.
  enum State {
    /// Not run yet.
    case pending(@Sendable () -> Void)
    /// Running on the thread that took it; `isAwaited` when another caller waits for it.
    case running(isAwaited: Bool)
    /// Has run, and is released.
    case done
  }

  private let state: Locked<State>

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.state = Locked(.pending(onCancel))
  }

  func cancel(_ subscription: HandlerSubscription) {
    // The one reference to the closure: run and released inside the effects scope, so a cancel
    // from its captures' deinits (released with it) does not wait for this one.
    var pending = state.withLock { state -> (@Sendable () -> Void)? in
      guard case .pending(let action) = state else { return nil }
      state = .running(isAwaited: false)
      return action
    }
    guard pending != nil else { return awaitOtherCanceller() }
    CancelGate.runningEffects {
      pending?()
      pending = nil
    }
    let wake = state.withLock { state in
      defer { state = .done }
      if case .running(isAwaited: true) = state { return true }
      return false
    }
    if wake { CancelGate.wake() }
  }

  /// Returns once another caller's run of the closure has finished, unless this thread runs a
  /// cancel's work (which may be that very run).
  private func awaitOtherCanceller() {
    guard !CancelGate.isRunningEffects else { return }
    let mustWait = state.withLock { state in
      guard case .running = state else { return false }
      state = .running(isAwaited: true)
      return true
    }
    guard mustWait else { return }
    CancelGate.wait { state.withLock { if case .running = $0 { true } else { false } } }
  }

  func isCancelled(_ subscription: HandlerSubscription) -> Bool {
    state.withLock { if case .done = $0 { true } else { false } }
  }
}

#if !canImport(Combine)
  /// The name ``HandlerSubscription`` had before 0.1.0.
  ///
  /// Kept only where Combine cannot be imported (Linux, Windows): on Apple platforms a file that
  /// imports ClosureKit and Combine (as every SwiftUI file does) could not write `HandlerSubscription`,
  /// which Combine also declares, so there the old name is gone.
  @available(*, deprecated, renamed: "HandlerSubscription")
  public typealias Subscription = HandlerSubscription
#endif
