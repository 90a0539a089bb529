#if canImport(Combine)
  public import ClosureKit
  public import Combine

  extension Publisher where Failure == Never, Output: Sendable {
    /// Runs `handler` for every value of this publisher, with ClosureKit's lifetime rule: it lives
    /// as long as the publisher unless the returned token is cancelled.
    ///
    /// ```swift
    /// let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    /// timer.addHandler(on: .mainActor) { date in print(date) }  // lives until the token is cancelled
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``: on the thread the
    ///     publisher delivers on.
    ///   - handler: Receives each value.
    /// - Returns: A token that cancels the subscription; dropping it does not (unlike `sink`'s
    ///   `AnyCancellable`).
    ///
    /// > Important: The publisher's subscription requests every value. After the token's `cancel()`
    /// > returns no delivery starts, also one already queued on `delivery`; the handler's captures
    /// > are released when the token is cancelled or the publisher finishes.
    @discardableResult
    public func addHandler(
      on delivery: Delivery = .immediate,
      _ handler: @escaping @Sendable (Output) -> Void
    ) -> ClosureKit.HandlerSubscription {
      subscribeHandler(delivery: delivery) { value in
        handler(value)
        return true
      }
    }

    /// Runs `handler` for every value of this publisher while `owner` lives: the owner is held
    /// weakly and passed back strong, so no `[weak self]` is needed.
    ///
    /// ```swift
    /// final class Clock: Sendable { func show(_ date: Date) { print(date) } }
    /// let clock = Clock()
    /// Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    ///   .addHandler(owner: clock) { clock, date in clock.show(date) }  // ends with `clock`
    /// ```
    ///
    /// - Parameters:
    ///   - owner: Held weakly; the subscription is cancelled at the first value after it is gone.
    ///   - delivery: Where the handler runs. Defaults to ``Delivery/immediate``.
    ///   - handler: Receives the owner and each value.
    /// - Returns: A token that cancels the subscription; dropping it does not.
    ///
    /// > Important: As ``Combine/Publisher/addHandler(on:_:)``; a value that finds the owner gone
    /// > cancels the subscription instead of running the handler.
    @discardableResult
    public func addHandler<Owner: AnyObject & Sendable>(
      owner: Owner,
      on delivery: Delivery = .immediate,
      _ handler: @escaping @Sendable (Owner, Output) -> Void
    ) -> ClosureKit.HandlerSubscription {
      subscribeHandler(delivery: delivery) { [weak owner] value in
        guard let owner else { return false }
        handler(owner, value)
        return true
      }
    }

    private func subscribeHandler(
      delivery: Delivery,
      _ handler: @escaping @Sendable (Output) -> Bool
    ) -> ClosureKit.HandlerSubscription {
      let sink = HandlerSink<Output, CombineUpstream>(delivery: delivery, handler: handler)
      let token = sink.makeToken()
      subscribe(CombineHandlerSubscriber(sink: sink))
      return token
    }
  }

  /// Combine's subscription as a ``UpstreamLink``.
  struct CombineUpstream: UpstreamLink, @unchecked Sendable {
    // @unchecked Sendable: Combine's subscriptions are thread-safe by contract (request and cancel
    // may be called from any thread), though the protocol does not say `Sendable`.
    let subscription: any Combine.Subscription

    func requestUnlimited() {
      subscription.request(.unlimited)
    }

    func cancel() {
      subscription.cancel()
    }
  }

  /// The Combine subscriber in front of a ``HandlerSink``. The upstream holds it (and so the sink)
  /// until it finishes or is cancelled: dropping the token does not end the handler.
  struct CombineHandlerSubscriber<Input: Sendable>: Subscriber {
    typealias Failure = Never
    let sink: HandlerSink<Input, CombineUpstream>
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Combine.Subscription) {
      sink.subscribed(to: CombineUpstream(subscription: subscription))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      sink.receive(input)
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      sink.completed()
    }
  }
#endif
