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
    for subscription in subscriptions.withLock({ $0 }) {
      subscription.cancel()
    }
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
  public func insert(_ subscription: Subscription) {
    let swept = subscriptions.withLock { subscriptions -> [Subscription] in
      var swept: [Subscription] = []
      if subscriptions.count >= 16, subscriptions.count.nonzeroBitCount == 1 {
        swept = subscriptions
        subscriptions = swept.filter { !$0.isCancelled }
      }
      subscriptions.append(subscription)
      return swept
    }
    // A swept token may hold the last reference to its source and the user's values: released
    // here, after unlocking, since their deinit may use this bag.
    withExtendedLifetime(swept) {}
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
    for subscription in taken {
      subscription.cancel()
    }
  }

  /// The number of subscriptions in the bag that have not ended.
  ///
  /// ```swift
  /// print(bag.count)
  /// ```
  ///
  /// - Complexity: O(n).
  public var count: Int {
    subscriptions.withLock { $0.lazy.filter { !$0.isCancelled }.count }
  }
}
