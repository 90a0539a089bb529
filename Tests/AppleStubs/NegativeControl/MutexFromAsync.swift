// Negative control for Scripts/typecheck-apple.sh: a pthread mutex locked directly in an async
// function. libpthread marks `pthread_mutex_lock` `@_unavailableFromAsync` for Swift; Glibc does not.
// expected-error: global function 'pthread_mutex_lock' is unavailable from asynchronous contexts
#if canImport(Darwin)
  import Darwin

  func update(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) async {
    pthread_mutex_lock(mutex)
    pthread_mutex_unlock(mutex)
  }
#endif
