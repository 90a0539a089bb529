/// A set of subscriptions that ends together: on ``cancelAll()`` or when the bag is deinitialised.
///
/// Keep one bag per owner (a view model, a connection, a test) instead of one property per token.
/// It is a class, so ``HandlerSubscription/store(in:)`` needs no `&`.
///
/// ```swift
/// final class Screen {
///   let bag = SubscriptionBag()
///   init(model: Model) {
///     model.saved.addHandler { print("saved", $0) }.store(in: bag)
///     model.failed.addHandler { print("failed", $0) }.store(in: bag)
///   }
/// }   // when Screen goes, both handlers end and their captures are released
/// ```
///
/// > Important: Thread-safe. Subscriptions are cancelled outside the bag's lock, so a handler
/// > that is being cancelled may insert into or cancel the same bag. When ``cancelAll()`` returns,
/// > on any thread, every subscription stored before the call has ended, also those another
/// > thread's `cancelAll()` took first (the call waits for it).
public final class SubscriptionBag: Sendable {
  /// The subscriptions not yet cancelled through this bag, and the `cancelAll()` calls running.
  private let state = Locked(SubscriptionBagState())

  /// Creates an empty bag.
  ///
  /// ```swift
  /// let bag = SubscriptionBag()
  /// ```
  public init() {}

  deinit {
    // No other caller can be running: a `cancelAll()` holds the bag.
    let taken = state.withLock { state in
      defer { state.subscriptions = [] }
      return state.subscriptions
    }
    HandlerSubscription.cancel(taken)
  }

  /// Adds a subscription; it is cancelled with the bag.
  ///
  /// ```swift
  /// bag.insert(event.addHandler { print($0) })
  /// ```
  ///
  /// - Parameter subscription: The token to keep. Inserting one twice has no further effect.
  ///
  /// - Complexity: Amortised O(1): subscriptions that ended by themselves are dropped from the bag
  ///   each time its size doubles.
  public func insert(_ subscription: consuming HandlerSubscription) {
    // Taken over, not copied: the caller's reference becomes the bag's (`consuming`, with
    // ``HandlerSubscription/store(in:)``), which saves a retain and a release per token.
    var taken = Optional(subscription)
    let snapshot = state.withLock { state -> [HandlerSubscription]? in
      // Room for 16 at once, not 1, 2, 4, 8 and 16 in turn: a bag usually collects several tokens.
      if state.subscriptions.capacity == 0 { state.subscriptions.reserveCapacity(16) }
      state.subscriptions.append(taken.take().unsafelyUnwrapped)
      let previousCount = state.subscriptions.count - 1
      return previousCount >= 16 && previousCount.nonzeroBitCount == 1 ? state.subscriptions : nil
    }
    if let snapshot { sweep(snapshot) }
  }

  /// Drops from the bag the subscriptions of `snapshot` that ended by themselves.
  ///
  /// Asks each token outside the lock (a source may load a weak reference to answer, and that
  /// temporary may be the last reference to a user's object), and releases the dropped tokens after
  /// unlocking (a token may hold the last reference to its source and the user's values): a deinit
  /// that uses this bag must not run under its lock.
  private func sweep(_ snapshot: [HandlerSubscription]) {
    let ended = Set(snapshot.lazy.filter(\.isCancelled).map(ObjectIdentifier.init))
    guard !ended.isEmpty else { return }
    // `snapshot` keeps the ended tokens alive, so no new token can reuse their identifiers here.
    let old = state.withLock { state in
      let old = state.subscriptions
      state.subscriptions = old.filter { !ended.contains(ObjectIdentifier($0)) }
      return old
    }
    withExtendedLifetime((snapshot, old)) {}
  }

  /// Cancels every subscription in the bag and empties it. The bag stays usable.
  ///
  /// ```swift
  /// bag.cancelAll()
  /// ```
  ///
  /// > Important: When it returns, every subscription stored before the call has ended, as if
  /// > cancelled one by one: no delivery of their handlers starts, and what they captured is
  /// > released unless a send is running. Called on two threads at once, each returns only once
  /// > both are done. Called from code that a cancel runs (an `onCancel` closure, the deinit of a
  /// > released capture), it does its own part and does not wait for another thread's.
  ///
  /// - Complexity: O(n) in the number of subscriptions inserted.
  public func cancelAll() {
    let (taken, ticket) = state.withLock { $0.beginCancelAll() }
    if !taken.isEmpty { CancelGate.runningEffects { HandlerSubscription.cancel(taken) } }
    let mayWait = !CancelGate.isRunningEffects
    let (wake, mustWait) = state.withLock { $0.finishCancelAll(ticket, mayWait: mayWait) }
    if wake { CancelGate.wake() }
    if mustWait { CancelGate.wait { state.withLock { $0.isRunningCancel(before: ticket) } } }
    withExtendedLifetime(taken) {}  // the tokens, after their cancels
  }

  /// The number of subscriptions in the bag that have not ended.
  ///
  /// ```swift
  /// print(bag.count)
  /// ```
  ///
  /// - Complexity: O(n).
  public var count: Int {
    // Asked outside the lock, for the reason given in `sweep(_:)`.
    state.withLock { $0.subscriptions }.lazy.filter { !$0.isCancelled }.count
  }
}

/// A ``SubscriptionBag``'s state under its lock: its tokens, and the ``SubscriptionBag/cancelAll()``
/// calls that have taken tokens and not finished cancelling them, so that a later call waits for
/// them.
struct SubscriptionBagState {
  /// The subscriptions not yet cancelled through the bag.
  var subscriptions: [HandlerSubscription] = []
  /// The ticket of the next `cancelAll()`: calls are ordered by their tickets.
  var nextTicket: UInt64 = 0
  /// The tickets of the calls cancelling the tokens they took.
  var running: [UInt64] = []
  /// Whether a call waits (on ``CancelGate``) for one of `running` to finish.
  var isAwaited = false

  /// Takes the tokens and a ticket; the call is `running` while it has tokens to cancel.
  mutating func beginCancelAll() -> ([HandlerSubscription], UInt64) {
    let taken = subscriptions
    subscriptions = []
    let ticket = nextTicket
    nextTicket &+= 1
    if !taken.isEmpty { running.append(ticket) }
    return (taken, ticket)
  }

  /// Ends the call of `ticket`: whether to wake the waiting calls, and whether this one must wait
  /// (when `mayWait`) for a call that took tokens before it.
  mutating func finishCancelAll(_ ticket: UInt64, mayWait: Bool) -> (wake: Bool, mustWait: Bool) {
    let wasRunning = running.contains(ticket)
    running.removeAll { $0 == ticket }
    let wake = wasRunning && isAwaited
    if running.isEmpty { isAwaited = false }
    let mustWait = mayWait && isRunningCancel(before: ticket)
    if mustWait { isAwaited = true }
    return (wake, mustWait)
  }

  /// Whether a call that began before the call of `ticket` is still cancelling.
  func isRunningCancel(before ticket: UInt64) -> Bool {
    running.contains { $0 < ticket }
  }
}
