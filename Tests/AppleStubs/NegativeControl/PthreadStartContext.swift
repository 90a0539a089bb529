// Negative control for Scripts/typecheck-apple.sh: a thread's start routine that treats its
// context as non-optional. libpthread's `pthread_create` (the variant every Swift since 3 sees)
// takes `void * _Nullable (* _Nonnull)(void * _Nullable)`: the context is optional on Darwin too.
// ClosureKit's Darwin branch did this before issue 13.
// expected-error: value of optional type 'UnsafeMutableRawPointer?' must be unwrapped
#if canImport(Darwin)
  import Darwin

  final class Body {
    func run() {}
  }

  func startThread(_ body: Body) {
    var thread: pthread_t?
    let context = Unmanaged.passRetained(body).toOpaque()
    _ = pthread_create(
      &thread,
      nil,
      { context in
        Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        return nil
      },
      context
    )
  }
#endif
