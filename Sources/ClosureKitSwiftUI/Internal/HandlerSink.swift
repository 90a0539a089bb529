package import ClosureKit

/// The upstream a ``HandlerSink`` subscribed to: Combine's subscription on Apple platforms, a test
/// double here.
package protocol UpstreamLink: Sendable {
  /// Asks for every value.
  func requestUnlimited()
  /// Ends the upstream subscription.
  func cancel()
}

/// Where a ``HandlerSink`` is in its life.
package enum HandlerSinkPhase<Upstream> {
  /// Created; the upstream has not handed its subscription over yet.
  case waiting
  /// Receiving from this upstream.
  case subscribed(Upstream)
  /// Cancelled, completed or its owner gone: the handler is released.
  case ended
}

/// The state of a ``HandlerSink``: a pure value whose transitions return what to do after the lock.
package struct HandlerSinkState<Upstream, Handler> {
  package private(set) var phase = HandlerSinkPhase<Upstream>.waiting
  package private(set) var handler: Handler?

  package init(handler: Handler) {
    self.handler = handler
  }

  /// The upstream handed its subscription over: request from it, or cancel it if the sink ended
  /// first (a second subscription is cancelled too, as Combine's rules ask).
  package mutating func subscribed(to upstream: Upstream) -> (request: Upstream?, cancel: Upstream?) {
    defer { assert(verifyInvariants()) }
    guard case .waiting = phase else { return (nil, upstream) }
    phase = .subscribed(upstream)
    return (upstream, nil)
  }

  /// Ends the sink: returns the upstream to cancel and the handler to release after the lock.
  package mutating func end() -> (cancel: Upstream?, release: Handler?) {
    defer { assert(verifyInvariants()) }
    let upstream: Upstream?
    switch phase {
    case .subscribed(let link): upstream = link
    case .waiting, .ended: upstream = nil
    }
    phase = .ended
    defer { handler = nil }
    return (upstream, handler)
  }

  /// The upstream finished: nothing to cancel; returns the handler to release.
  package mutating func completed() -> Handler? {
    defer { assert(verifyInvariants()) }
    phase = .ended
    defer { handler = nil }
    return handler
  }

  /// The handler holds exactly while the sink has not ended.
  package func verifyInvariants() -> Bool {
    if case .ended = phase { return handler == nil }
    return handler != nil
  }
}

/// A subscriber that runs a ClosureKit handler for every value of a publisher that never fails,
/// with ClosureKit's lifetime: it lives as long as the publisher unless its token is cancelled or
/// its owner is deallocated.
package final class HandlerSink<Input: Sendable, Upstream: UpstreamLink>: Sendable {
  /// Returns `false` when its owner is gone.
  package typealias Handler = @Sendable (Input) -> Bool

  private let state: Locked<HandlerSinkState<Upstream, Handler>>
  private let delivery: Delivery

  package init(delivery: Delivery, handler: @escaping Handler) {
    self.delivery = delivery
    state = Locked(HandlerSinkState(handler: handler))
  }

  /// The token a registration returns: cancelling it ends the sink and its upstream.
  package func makeToken() -> HandlerSubscription {
    HandlerSubscription { [self] in end() }
  }

  package func subscribed(to upstream: Upstream) {
    let (request, cancel) = state.withLock { $0.subscribed(to: upstream) }
    cancel?.cancel()
    request?.requestUnlimited()
  }

  package func receive(_ input: Input) {
    guard state.withLock({ $0.handler != nil }) else { return }
    delivery.execute { [self] in
      // Read again where the delivery runs: a cancel that returned before it starts wins.
      guard let handler = state.withLock({ $0.handler }) else { return }
      if !handler(input) { end() }
    }
  }

  package func completed() {
    let released = state.withLock { $0.completed() }
    withExtendedLifetime(released) {}
  }

  /// Ends the sink: no delivery starts after this returns, and the handler is released.
  package func end() {
    let (upstream, released) = state.withLock { $0.end() }
    upstream?.cancel()
    withExtendedLifetime(released) {}
  }

  /// Whether the sink ended.
  package var isEnded: Bool {
    state.withLock { $0.handler == nil }
  }
}
