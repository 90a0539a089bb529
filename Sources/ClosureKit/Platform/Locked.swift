#if canImport(Darwin)
  public import Darwin
#elseif canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Android)
  public import Android
#endif

/// A value protected by a `pthread_mutex_t`: the lock of every ClosureKit module.
///
/// Used instead of `Synchronization.Mutex` for two reasons found on Linux (Swift 6.3.1):
/// - `Mutex` records the owner's thread id with a `gettid` system call on every lock, which costs
///   more than delivering to ten handlers (measured by `Benchmarks/`, suite `events`);
/// - ThreadSanitizer does not see the futex slow path of `Mutex` as synchronisation, so a contended
///   `Mutex` yields false data-race reports; `pthread_mutex_t` is intercepted and understood.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, under the mutex.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
  /// The protected value; exclusivity is unchecked because the mutex already serialises access.
  @usableFromInline @exclusivity(unchecked) var value: Value
  /// The mutex, in stable heap memory as pthreads requires.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline
  package init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let result = pthread_mutex_init(mutex, nil)
    if result != 0 { failPrecondition("pthread_mutex_init failed: \(result)") }
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

/// The identity of an operating-system thread, without Foundation: `pthread_self()`, compared with
/// `pthread_equal`.
///
/// `@unchecked Sendable`: a `pthread_t` is an opaque handle, only compared, never dereferenced.
@usableFromInline
struct ThreadIdentity: Equatable, @unchecked Sendable {
  @usableFromInline let thread: pthread_t

  @inlinable
  init(thread: pthread_t) {
    self.thread = thread
  }

  /// The calling thread.
  @inlinable static var current: ThreadIdentity {
    ThreadIdentity(thread: pthread_self())
  }

  @inlinable
  static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
    pthread_equal(lhs.thread, rhs.thread) != 0
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
      let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
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
