#if canImport(UIKit)
  /// Carries a value that is not `Sendable` into `MainActor.assumeIsolated` from a `nonisolated`
  /// delegate method that its framework calls on the main thread (WebKit's and MessageUI's
  /// delegate protocols are not main-actor annotated in the iOS 16.5 SDK).
  struct MainThreadBox<Value>: @unchecked Sendable {
    // @unchecked Sendable: made and consumed on the main thread, in one synchronous call; the
    // `MainActor.assumeIsolated` that consumes it checks the thread.

    /// The value.
    let value: Value

    init(_ value: Value) {
      self.value = value
    }
  }
#endif
