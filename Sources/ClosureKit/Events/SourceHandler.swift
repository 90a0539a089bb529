import Synchronization

/// The closure a ``HandlerSource``'s primitive, ``HandlerSource/register(once:on:file:line:_:)``,
/// registers: with or without an owner.
///
/// ```swift
/// let tapped = Event<Int>()
/// let token = tapped.register(once: true, on: .immediate, file: #fileID, line: #line, SourceHandler<NoOwner, Int>.plain { print($0) })
/// ```
///
/// You meet it only when you make a type of your own a ``HandlerSource``; users call
/// `addHandler` and `once`, which build it.
///
/// > Important: A value, safe to pass between threads; an owner is held strongly until the source
/// > has registered it (then as the source holds it: weakly).
public enum SourceHandler<Owner: AnyObject & Sendable, Payload>: Sendable {
  /// A handler without an owner (`Owner` is then ``NoOwner``).
  case plain(@Sendable (Payload) -> Void)
  /// A handler bound to an owner: it ends when the owner is deallocated, and receives it strong.
  case owned(Owner, @Sendable (Owner, Payload) -> Void)
}

/// The `Owner` of a ``SourceHandler/plain(_:)`` handler. It has no instances.
///
/// ```swift
/// let handler: SourceHandler<NoOwner, Int> = .plain { print($0) }
/// ```
public final class NoOwner: Sendable {
  private init() {}
}

extension SourceHandler {
  /// For a source whose store knows neither owners nor one-shot handlers (an `@Observable`
  /// tracker, the fields of an `Observed` box): calls `add` with the owner to record (if any)
  /// and one plain closure that checks the owner weakly and, when `once`, claims the one call and
  /// cancels the returned token before running the handler.
  package func registerFlattened(
    once: Bool,
    _ add: (_ owner: (any AnyObject & Sendable)?, _ handler: @escaping @Sendable (Payload) -> Void) ->
      HandlerSubscription
  ) -> HandlerSubscription {
    switch (self, once) {
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
  private let subscription = Locked<HandlerSubscription?>(nil)

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
  func attach(_ token: HandlerSubscription) -> HandlerSubscription {
    let ranAlready = subscription.withLock { subscription -> Bool in
      if fired.load(ordering: .acquiring) { return true }
      subscription = token
      return false
    }
    if ranAlready { token.cancel() }
    return token
  }
}
