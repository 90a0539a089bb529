#if canImport(Combine)
  public import ClosureKit
  public import Combine

  /// A Combine publisher of a ClosureKit source's payloads: each subscription is a registration on
  /// the source, and cancelling the subscription cancels that registration.
  ///
  /// ```swift
  /// import Combine
  /// import ClosureKit
  /// import ClosureKitSwiftUI
  ///
  /// let saved = Event<String>()
  /// let cancellable = saved.publisher
  ///   .map { $0.uppercased() }
  ///   .sink { print($0) }
  /// saved.send("notes.txt")  // prints "NOTES.TXT"
  /// cancellable.cancel()     // ends the registration on `saved`
  /// ```
  ///
  /// Demand is honoured: a subscriber that asked for one value gets one. The values that arrive
  /// while the subscriber has no demand are buffered by the publisher's buffering policy
  /// (``HandlerSource/publisher``: every value, as `AsyncStream` and `Event.values` keep them;
  /// ``HandlerSource/publisher(bufferingPolicy:)`` to bound it) and delivered, oldest first, as
  /// demand arrives. When the source ends (it is deallocated), the buffered values are delivered
  /// as demand allows, then `.finished`.
  ///
  /// > Important: A value is delivered on the thread that sends it when the subscriber has demand
  /// > and nothing is buffered; a buffered value is delivered on the thread that requests it
  /// > (or on a sending thread that finds the subscriber ready). The subscriber is never called
  /// > concurrently. After the subscription's `cancel()` returns, no value reaches it.
  public struct HandlerSourcePublisher<Source: HandlerSource>: Publisher, Sendable
  where Source.Payload: Sendable {
    public typealias Output = Source.Payload
    public typealias Failure = Never

    /// The source each subscription registers on.
    public let source: Source
    let policy: DemandBufferingPolicy

    init(source: Source, policy: DemandBufferingPolicy) {
      self.source = source
      self.policy = policy
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      let subscription = CombineSubscription(
        DemandSubscription<Source>(sink: CombineSink(subscriber), policy: policy)
      )
      subscriber.receive(subscription: subscription)
      subscription.base.start(on: source)
    }
  }

  extension HandlerSource where Payload: Sendable {
    /// A Combine publisher of this source's payloads that keeps every value a slow subscriber has
    /// not asked for yet.
    ///
    /// ```swift
    /// let count = Observed(0)
    /// let cancellable = count.observing([.new]).publisher.compactMap(\.newValue).sink { print($0) }
    /// count.value = 1  // prints "1"
    /// ```
    ///
    /// > Important: See ``HandlerSourcePublisher`` for demand, buffering and threads. Dropping the
    /// > `AnyCancellable` that `sink` returns cancels the subscription (Combine's rule), and with it
    /// > the registration: keep it as you would keep a token.
    public var publisher: HandlerSourcePublisher<Self> {
      HandlerSourcePublisher(source: self, policy: .unbounded)
    }

    /// A Combine publisher of this source's payloads that keeps what `bufferingPolicy` says while
    /// the subscriber has no demand.
    ///
    /// ```swift
    /// let ticks = Event<Int>()
    /// let latest = ticks.publisher(bufferingPolicy: .bufferingNewest(1))
    /// ```
    ///
    /// - Parameter bufferingPolicy: `.unbounded`, `.bufferingNewest(n)` or `.bufferingOldest(n)`,
    ///   as for `AsyncStream`.
    public func publisher(
      bufferingPolicy: AsyncStream<Payload>.Continuation.BufferingPolicy
    ) -> HandlerSourcePublisher<Self> {
      HandlerSourcePublisher(source: self, policy: .init(bufferingPolicy))
    }
  }

  /// Combine's face of a ``DemandSubscription``.
  final class CombineSubscription<Source: HandlerSource>: Combine.Subscription, Sendable
  where Source.Payload: Sendable {
    let base: DemandSubscription<Source>

    init(_ base: DemandSubscription<Source>) {
      self.base = base
    }

    func request(_ demand: Subscribers.Demand) {
      guard demand > .none else { return }
      base.request(demand.max ?? Int.max)
    }

    func cancel() {
      base.cancel()
    }
  }

  /// A Combine subscriber as the sink of a ``DemandSubscription``.
  struct CombineSink<S: Subscriber>: DemandSink where S.Failure == Never {
    let subscriber: S

    init(_ subscriber: S) {
      self.subscriber = subscriber
    }

    func receive(_ input: S.Input) -> Int {
      let demand = subscriber.receive(input)
      return demand.max ?? Int.max
    }

    func receiveCompletion() {
      subscriber.receive(completion: .finished)
    }
  }
#endif
