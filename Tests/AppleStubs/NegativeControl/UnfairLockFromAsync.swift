// Negative control for Scripts/typecheck-apple.sh: an `os_unfair_lock` taken directly in an async
// function. libplatform marks `os_unfair_lock_lock` unavailable from async contexts for Swift.
// expected-error: global function 'os_unfair_lock_lock' is unavailable from asynchronous contexts
#if canImport(Darwin)
  import Darwin

  func update(_ lock: UnsafeMutablePointer<os_unfair_lock_s>) async {
    os_unfair_lock_lock(lock)
    os_unfair_lock_unlock(lock)
  }
#endif
