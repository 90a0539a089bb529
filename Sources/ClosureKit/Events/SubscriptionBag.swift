/// A set of subscriptions that ends together: on ``cancelAll()`` or when the bag is deinitialised.
///
/// Keep one bag per owner (a view model, a connection, a test) instead of one property per token.
/// It is a class, so ``Subscription/store(in:)`` needs no `&`.
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
/// > that is being cancelled may insert into or cancel the same bag.
public final class SubscriptionBag: Sendable {
  /// The subscriptions not yet cancelled through this bag.
  private let subscriptions = Locked<[Subscription]>([])

  /// Creates an empty bag.
  ///
  /// ```swift
  /// let bag = SubscriptionBag()
  /// ```
  public init() {}

  deinit {
    let taken = subscriptions.withLock { subscriptions in
      defer { subscriptions = [] }
      return subscriptions
    }
    Subscription.cancel(taken)
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
  public func insert(_ subscription: consuming Subscription) {
    // Taken over, not copied: the caller's reference becomes the bag's (`consuming`, with
    // ``Subscription/store(in:)``), which saves a retain and a release per token.
    var taken = Optional(subscription)
    let snapshot = subscriptions.withLock { subscriptions -> [Subscription]? in
      // Room for 16 at once, not 1, 2, 4, 8 and 16 in turn: a bag usually collects several tokens.
      if subscriptions.capacity == 0 { subscriptions.reserveCapacity(16) }
      subscriptions.append(taken.take().unsafelyUnwrapped)
      let previousCount = subscriptions.count - 1
      return previousCount >= 16 && previousCount.nonzeroBitCount == 1 ? subscriptions : nil
    }
    if let snapshot { sweep(snapshot) }
  }

  /// Drops from the bag the subscriptions of `snapshot` that ended by themselves.
  ///
  /// Asks each token outside the lock (a source may load a weak reference to answer, and that
  /// temporary may be the last reference to a user's object), and releases the dropped tokens after
  /// unlocking (a token may hold the last reference to its source and the user's values): a deinit
  /// that uses this bag must not run under its lock.
  private func sweep(_ snapshot: [Subscription]) {
    let ended = Set(snapshot.lazy.filter(\.isCancelled).map(ObjectIdentifier.init))
    guard !ended.isEmpty else { return }
    // `snapshot` keeps the ended tokens alive, so no new token can reuse their identifiers here.
    let old = subscriptions.withLock { subscriptions in
      let old = subscriptions
      subscriptions = old.filter { !ended.contains(ObjectIdentifier($0)) }
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
  /// - Complexity: O(n) in the number of subscriptions inserted.
  public func cancelAll() {
    let taken = subscriptions.withLock { subscriptions in
      defer { subscriptions = [] }
      return subscriptions
    }
    Subscription.cancel(taken)
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
    subscriptions.withLock { $0 }.lazy.filter { !$0.isCancelled }.count
  }
}
