#if canImport(UIKit)
  /// Carries a previous delegate out of `MainActor.assumeIsolated` to the Objective-C runtime.
  struct ForwardingTarget: @unchecked Sendable {
    // @unchecked Sendable: made on the main actor and returned to the runtime on the same thread.

    /// The object to forward to, if any.
    let object: AnyObject?

    init(_ object: AnyObject?) {
      self.object = object
    }
  }
#endif
