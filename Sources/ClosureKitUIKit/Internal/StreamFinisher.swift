#if canImport(UIKit)
  /// Finishes a stream when the action holding it is released (the control was deallocated).
  final class StreamFinisher<Element: Sendable>: Sendable {
    let continuation: AsyncStream<Element>.Continuation

    init(_ continuation: AsyncStream<Element>.Continuation) {
      self.continuation = continuation
    }

    deinit {
      continuation.finish()
    }
  }
#endif
