/// Wraps a handler that takes an owner into one that holds the owner weakly and does nothing once
/// the owner is gone: the owner binding of every `owner:` variant.
@inlinable
func bindingOwner<Owner: AnyObject & Sendable, Argument>(
  _ owner: Owner,
  _ handler: @escaping @Sendable (Owner, Argument) -> Void
) -> @Sendable (Argument) -> Void {
  { [weak owner] argument in
    guard let owner else { return }
    handler(owner, argument)
  }
}

/// An `AsyncStream` fed by the handler that `register` registers: the stream's termination
/// (consumer cancelled, stream dropped) cancels the registration, and the end of the registration
/// (its source is gone, so the handler is released) finishes the stream.
func handlerStream<Element: Sendable>(
  bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
  register: (_ handler: @escaping @Sendable (Element) -> Void) -> Subscription
) -> AsyncStream<Element> {
  let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
  let finisher = StreamFinisher(continuation)
  let subscription = register { element in
    finisher.continuation.yield(element)
  }
  continuation.onTermination = { _ in subscription.cancel() }
  return stream
}
