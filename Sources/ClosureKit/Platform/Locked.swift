#if canImport(Darwin)
  public import Darwin
#elseif canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Android)
  public import Android
#endif

/// The lock primitive of ``Locked``: `os_unfair_lock` on Apple platforms, `pthread_mutex_t`
/// elsewhere. Either lives in stable heap memory, as both require.
#if canImport(Darwin)
  @usableFromInline typealias LockPrimitive = os_unfair_lock_s
#else
  @usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// A value protected by a lock: the lock of every ClosureKit module.
///
/// On Apple platforms the lock is an `os_unfair_lock`, the lock Apple recommends for short
/// critical sections (`pthread_mutex_t` there is a heavier, policy-driven lock; the standard
/// library's `Mutex` is an `os_unfair_lock` too). Elsewhere it is a `pthread_mutex_t`, used instead
/// of `Synchronization.Mutex` for two reasons found on Linux (Swift 6.3.1):
/// - `Mutex` records the owner's thread id with a `gettid` system call on every lock, which costs
///   more than delivering to ten handlers (measured by `Benchmarks/`, suite `events`);
/// - ThreadSanitizer does not see the futex slow path of `Mutex` as synchronisation, so a contended
///   `Mutex` yields false data-race reports; `pthread_mutex_t` is intercepted and understood.
///
/// The value and the lock share one heap object, a ``LockedStorage``: the lock is its tail
/// element, at an address that stays put, as both locks require. A copy of a `Locked` shares the
/// value and the lock.
///
/// Neither lock is recursive: a body must not take the same lock again. Debug builds check it:
/// on Apple platforms `os_unfair_lock_assert_not_owner` traps before a re-lock; elsewhere the
/// mutex is error-checking (`PTHREAD_MUTEX_ERRORCHECK`), so a re-lock returns `EDEADLK` and stops
/// the program with a message instead of hanging. Every `pthread_mutex_*` result is checked, in
/// release builds too (a compare and a branch never taken).
///
/// `@unchecked Sendable`: the value is read and written only inside `withLock`, under the lock.
@usableFromInline
package struct Locked<Value>: @unchecked Sendable {
  /// The value and the lock.
  @usableFromInline let storage: LockedStorage<Value>

  @usableFromInline
  package init(_ value: Value) {
    let made = LockedStorage<Value>.create(minimumCapacity: 1) { _ in value }
    storage = unsafeDowncast(made, to: LockedStorage<Value>.self)
    storage.withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock_s())
      #else
        primitive.initialize(to: pthread_mutex_t())
        #if DEBUG
          var attributes = pthread_mutexattr_t()
          pthread_mutexattr_init(&attributes)
          defer { pthread_mutexattr_destroy(&attributes) }
          pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
          let result = pthread_mutex_init(primitive, &attributes)
        #else
          let result = pthread_mutex_init(primitive, nil)
        #endif
        if result != 0 { failPrecondition("pthread_mutex_init failed: \(result)") }
      #endif
    }
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { value, primitive in
      #if canImport(Darwin)
        #if DEBUG
          os_unfair_lock_assert_not_owner(primitive)
        #endif
        os_unfair_lock_lock(primitive)
        defer { os_unfair_lock_unlock(primitive) }
      #else
        let locked = pthread_mutex_lock(primitive)
        if locked != 0 { lockFailed("pthread_mutex_lock", locked) }
        defer {
          let unlocked = pthread_mutex_unlock(primitive)
          if unlocked != 0 { lockFailed("pthread_mutex_unlock", unlocked) }
        }
      #endif
      return try body(&value.pointee)
    }
  }
}

#if !canImport(Darwin)
  /// Stops the program when a `pthread_mutex_*` call fails: `EDEADLK` is a re-lock by the holding
  /// thread (caught in debug builds, where the mutex is error-checking), `EPERM` an unlock by
  /// another thread. Out of line, so the lock's fast path stays small.
  @usableFromInline @inline(never)
  func lockFailed(_ call: StaticString, _ result: Int32) -> Never {
    failPrecondition(
      "\(call) failed with \(result)"
        + (result == EDEADLK ? " (EDEADLK: a ClosureKit lock taken again by the thread holding it)" : ""))
  }
#endif

/// The heap object of a ``Locked``: the value as the header, the lock as the one element. Not
/// `Sendable` (no `ManagedBuffer` is): it is shared between threads only inside a ``Locked``.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, LockPrimitive> {
  deinit {
    // The value, the header, is destroyed by `ManagedBuffer`; the element is this class's to end.
    withUnsafeMutablePointerToElements { primitive in
      #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
      #endif
      _ = primitive.deinitialize(count: 1)
    }
  }
}

/// Starts a new operating-system thread (not a Dispatch worker) that runs `body`, and returns it;
/// the caller joins or detaches it.
///
/// - Parameter body: What the thread runs; the thread ends when it returns.
/// - Returns: The thread, for `pthread_join` or `pthread_detach`.
package func startThread(_ body: @escaping () -> Void) -> pthread_t {
  let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  // Darwin's `pthread_t` is a non-optional pointer and `pthread_create` fills a `pthread_t?`;
  // Glibc's is an integer.
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let result = pthread_create(
    &thread,
    nil,
    { context in
      // Darwin imports the start routine's context as non-optional (libpthread's nullability
      // compat macro lacks parentheses, so Swift sees the compat declaration); Glibc as optional.
      // Widening to an optional first serves both.
      let body = Unmanaged<ThreadBody>.fromOpaque((context as UnsafeMutableRawPointer?)!)
        .takeRetainedValue()
      body.run()
      return nil
    },
    context
  )
  if result != 0 { failPrecondition("pthread_create failed: \(result)") }
  #if canImport(Darwin)
    return thread!
  #else
    return thread
  #endif
}

/// Starts a new operating-system thread that runs `body` and is never joined.
///
/// - Parameter body: What the thread runs; the thread ends when it returns.
func startDetachedThread(_ body: @escaping () -> Void) {
  pthread_detach(startThread(body))
}

/// What a thread started with `pthread_create` runs: a non-generic box, since a C function pointer
/// cannot refer to a generic type.
final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}
