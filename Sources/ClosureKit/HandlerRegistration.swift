import Synchronization

/// One registration handed to a ``HandlerSource``'s primitive, ``HandlerSource/register(_:)``: the
/// handler (with its owner, if any), whether it is one-shot, where it runs and where it was made.
///
/// ```swift
/// let tapped = Event<Int>()
/// let registration = HandlerRegistration(plain: { (count: Int) in print(count) }, isOnce: true, delivery: .immediate)
/// let token = tapped.register(registration)
/// ```
///
/// You meet it only when you make a type of your own a ``HandlerSource``; users call
/// `addHandler` and `once`, which build it.
///
/// > Important: A value, safe to pass between threads; the owner is held strongly until the
/// > source has registered it (then as the source holds it: weakly).
public struct HandlerRegistration<Owner: AnyObject & Sendable, Payload>: Sendable {
  /// The closure to call, with or without an owner.
  public enum Handler: Sendable {
    /// A handler without an owner.
    case plain(@Sendable (Payload) -> Void)
    /// A handler bound to an owner: it ends when the owner is deallocated, and receives it strong.
    case owned(Owner, @Sendable (Owner, Payload) -> Void)
  }

  /// The closure to call.
  public let handler: Handler
  /// Whether the handler ends after its first call.
  public let isOnce: Bool
  /// Where the handler runs.
  public let delivery: Delivery
  /// The `#fileID` of the registration, recorded while `HandlerDiagnostics` are on.
  public let file: StaticString
  /// The `#line` of the registration.
  public let line: UInt

  /// Creates a registration of a handler bound to `owner`.
  ///
  /// ```swift
  /// final class Screen: Sendable { func show(_ value: Int) {} }
  /// let screen = Screen()
  /// let registration = HandlerRegistration(owner: screen, handler: { (screen: Screen, value: Int) in screen.show(value) }, isOnce: false, delivery: .immediate)
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly by the source once registered.
  ///   - handler: Receives the owner and each payload.
  ///   - isOnce: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  @inlinable
  public init(
    owner: Owner,
    handler: @escaping @Sendable (Owner, Payload) -> Void,
    isOnce: Bool,
    delivery: consuming Delivery,
    file: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.handler = .owned(owner, handler)
    self.isOnce = isOnce
    self.delivery = delivery
    self.file = file
    self.line = line
  }

  /// Where the registration was made, for `HandlerDiagnostics`.
  @inlinable
  package var site: RegistrationSite {
    RegistrationSite(fileID: file, line: line)
  }
}

extension HandlerRegistration where Owner == NoOwner {
  /// Creates a registration of a handler without an owner.
  ///
  /// ```swift
  /// let registration = HandlerRegistration(plain: { (value: Int) in print(value) }, isOnce: false, delivery: .immediate)
  /// ```
  ///
  /// - Parameters:
  ///   - handler: Receives each payload.
  ///   - isOnce: Whether the handler ends after its first call.
  ///   - delivery: Where the handler runs.
  ///   - file: The `#fileID` of the registration.
  ///   - line: The `#line` of the registration.
  @inlinable
  public init(
    plain handler: @escaping @Sendable (Payload) -> Void,
    isOnce: Bool,
    delivery: consuming Delivery,
    file: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.handler = .plain(handler)
    self.isOnce = isOnce
    self.delivery = delivery
    self.file = file
    self.line = line
  }
}

/// The `Owner` of a ``HandlerRegistration`` that has no owner. It has no instances.
///
/// ```swift
/// let registration: HandlerRegistration<NoOwner, Int> = HandlerRegistration(plain: { print($0) }, isOnce: false, delivery: .immediate)
/// ```
public final class NoOwner: Sendable {
  private init() {}
}

extension HandlerRegistration {
  /// For a source whose store knows neither owners nor one-shot handlers (an `Observed` box, an
  /// `@Observable` tracker, a `NotificationCenter`): calls `add` with the owner to record (if any)
  /// and one plain closure that checks the owner weakly and, for a one-shot registration, claims
  /// the one call and cancels the returned token before running the handler.
  package func registerFlattened(
    _ add: (_ owner: (any AnyObject & Sendable)?, _ handler: @escaping @Sendable (Payload) -> Void) -> Subscription
  ) -> Subscription {
    switch (handler, isOnce) {
    case (.plain(let handler), false):
      return add(nil, handler)
    case (.owned(let owner, let handler), false):
      return add(owner, bindingOwner(owner, handler))
    case (.plain(let handler), true):
      let shot = OneShot()
      return shot.attach(
        add(nil) { payload in
          guard shot.claim() else { return }
          handler(payload)
        })
    case (.owned(let owner, let handler), true):
      let shot = OneShot()
      return shot.attach(
        add(owner) { [weak owner] payload in
          guard let owner, shot.claim() else { return }
          handler(owner, payload)
        })
    }
  }
}

/// The gate of a one-shot handler on a store without one-shot support: the first call claims it
/// and cancels the token (also when the call comes before `add` has returned the token).
final class OneShot: Sendable {
  /// Set by the one call that runs the handler.
  private let fired = Atomic<Bool>(false)
  /// The token, once `add` has returned it; `nil` after the gate has cancelled it.
  private let subscription = Locked<Subscription?>(nil)

  /// Whether this call is the first: the caller runs the handler only then. Cancels the token.
  func claim() -> Bool {
    guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return false }
    let taken = subscription.withLock { subscription in
      defer { subscription = nil }
      return subscription
    }
    taken?.cancel()
    return true
  }

  /// Records the token; cancels it at once if the handler has already run.
  func attach(_ token: Subscription) -> Subscription {
    let ranAlready = subscription.withLock { subscription -> Bool in
      if fired.load(ordering: .acquiring) { return true }
      subscription = token
      return false
    }
    if ranAlready { token.cancel() }
    return token
  }
}

extension HandlerList {
  /// Registers `registration` with `tag`: the one place a registry-backed source (``Event``,
  /// ``ControlActions``) turns a ``HandlerRegistration`` into a registry entry.
  @inlinable
  func add<Owner: AnyObject & Sendable>(
    tag: Tag,
    _ registration: consuming HandlerRegistration<Owner, Payload>
  ) -> Subscription {
    switch registration.handler {
    case .plain(let handler):
      return add(
        tag: tag, once: registration.isOnce, delivery: registration.delivery, site: registration.site, handler: handler)
    case .owned(let owner, let handler):
      return add(
        tag: tag,
        once: registration.isOnce,
        owner: owner,
        delivery: registration.delivery,
        site: registration.site,
        handler: handler
      )
    }
  }
}
