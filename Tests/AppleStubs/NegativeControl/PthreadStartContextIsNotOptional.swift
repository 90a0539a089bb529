// Negative control for Scripts/typecheck-apple.sh: a thread's start routine that unwraps its
// context as if it were optional. Apple's libpthread defines
// `_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT` without parentheses, so Swift imports the
// compatibility `pthread_create`, whose start routine takes a non-optional
// `UnsafeMutableRawPointer` (`swift-synthesize-interface` on iPhoneOS16.5.sdk's Darwin prints it;
// Scripts/compare-stubs.sh checks the stub against it). ClosureKit's Darwin branch did this before
// issue 26. Scripts/typecheck-apple-sdk.sh runs this control against the real SDK too.
// expected-error: cannot force unwrap value of non-optional type 'UnsafeMutableRawPointer'
#if canImport(Darwin)
  import Darwin

  final class Body {
    func run() {}
  }

  func startThread(_ body: Body) -> Int32 {
    var thread: pthread_t?
    let context = Unmanaged.passRetained(body).toOpaque()
    return pthread_create(
      &thread,
      nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      },
      context
    )
  }
#endif
