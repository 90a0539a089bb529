package import ClosureKit

/// What a subscription hands values to: Combine's `Subscriber` on Apple platforms, a test double
/// here. Calls are never concurrent (the subscription has one deliverer at a time).
package protocol DemandSink<Input> {
  associatedtype Input
  /// Takes one value; returns how many more the sink wants (`Int.max`: unlimited, 0: none).
  func receive(_ input: Input) -> Int
  /// The source ended and every buffered value was delivered.
  func receiveCompletion()
}

/// One subscription of a source's publisher: a registration on the source whose values reach the
/// sink as its demand allows.
///
/// The storage of ``PublisherDemandState``: it runs the state's transitions under its lock and
/// their effects (calling the sink, cancelling the registration, releasing values) after it.
package final class DemandSubscription<Source: HandlerSource>: @unchecked Sendable
where Source.Payload: Sendable {
  package typealias Sink = any DemandSink<Source.Payload>

  // @unchecked Sendable: `state` is only touched under its lock; `token` likewise. The sink, which
  // need not be Sendable, is called only by the one deliverer the state admits at a time (its
  // `isDelivering`), which serialises the calls as Combine requires.
  private let state: Locked<PublisherDemandState<Source.Payload, Sink>>
  private let token = Locked<HandlerSubscription?>(nil)

  package init(sink: Sink, policy: DemandBufferingPolicy) {
    state = Locked(PublisherDemandState(sink: sink, policy: policy))
  }

  /// Registers on `source`. Call once, after the sink has the subscription (Combine hands the
  /// subscription over before any value). A cancel that came first ends the registration at once.
  package func start(on source: Source) {
    let end = SourceEnd(self)
    let registration = source.addHandler { [self] value in
      withExtendedLifetime(end) { receive(value) }
    }
    token.withLock { $0 = registration }
    // A cancel that ran before the token was stored found none to cancel: end it here.
    if isTerminated { registration.cancel() }
  }

  /// The subscriber asks for more.
  package func request(_ count: Int) {
    if state.withLock({ $0.request(count) }) { deliver(state.withLock { $0.next() }) }
  }

  /// The subscriber (or whoever holds the subscription) cancels: after this returns no value
  /// reaches the sink, and the registration on the source is ended.
  package func cancel() {
    let (wasLive, released) = state.withLock { $0.cancel() }
    guard wasLive else { return }
    let registration = token.withLock { $0 }
    registration?.cancel()
    withExtendedLifetime(released) {}
  }

  /// Whether the subscription ended (completed or cancelled).
  package var isTerminated: Bool { state.withLock { $0.phase == .terminal } }

  /// The values waiting for demand.
  package var bufferedCount: Int { state.withLock { $0.bufferedCount } }

  /// The values the buffering policy dropped.
  package var droppedCount: Int { state.withLock { $0.droppedCount } }

  private func receive(_ value: Source.Payload) {
    switch state.withLock({ $0.receive(value) }) {
    case .deliver(let value, let sink):
      let more = sink.receive(value)
      deliver(state.withLock { $0.delivered(adding: more) })
    case .buffered, .ignored:
      break
    }
  }

  /// The source released its handler: it ended (or the registration was cancelled, which the
  /// state ignores).
  fileprivate func sourceEnded() {
    if state.withLock({ $0.finish() }) { deliver(state.withLock { $0.next() }) }
  }

  /// Runs the deliverer's loop from `step` until the state says stop.
  private func deliver(_ step: PublisherDemandState<Source.Payload, Sink>.Step) {
    var step = step
    while true {
      switch step {
      case .deliver(let value, let sink):
        let more = sink.receive(value)
        step = state.withLock { $0.delivered(adding: more) }
      case .complete(let sink):
        sink.receiveCompletion()
        return
      case .idle:
        return
      }
    }
  }
}

/// Captured by the registration's closure: the source releases it when the registration ends
/// (the source is gone, or the token was cancelled), and its deinit tells the subscription.
private final class SourceEnd<Source: HandlerSource>: Sendable where Source.Payload: Sendable {
  let subscription: DemandSubscription<Source>

  init(_ subscription: DemandSubscription<Source>) {
    self.subscription = subscription
  }

  deinit {
    subscription.sourceEnded()
  }
}
