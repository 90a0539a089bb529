#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// A `pthread` mutex with a condition variable, protecting `value`; the condition lets a writer of
/// an ``Observed`` wait for the writer that is delivering its callbacks (the "gate").
///
/// `@unchecked Sendable`: `value` is read and written only between `lock()` and `unlock()`.
final class GateLock<Value>: @unchecked Sendable {
  /// The protected value; exclusivity is unchecked because the mutex already serialises access.
  @exclusivity(unchecked) var value: Value
  /// The mutex, in stable heap memory as pthreads requires.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Signalled when the gate is released.
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    condition = UnsafeMutablePointer.allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    let mutexResult = pthread_mutex_init(mutex, nil)
    precondition(mutexResult == 0, "pthread_mutex_init failed: \(mutexResult)")
    let conditionResult = pthread_cond_init(condition, nil)
    precondition(conditionResult == 0, "pthread_cond_init failed: \(conditionResult)")
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
  /// Releases the mutex until the condition is signalled, then takes it again. Only while locked.
  func wait() { pthread_cond_wait(condition, mutex) }
  /// Wakes every waiter. Only while locked.
  func broadcast() { pthread_cond_broadcast(condition) }

  /// Runs `body` with exclusive access to the value.
  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

/// The identity of the calling thread, for the re-entrant writer gate.
struct ThreadIdentity: @unchecked Sendable {
  // @unchecked Sendable: a pthread_t is an opaque id, compared only, never dereferenced.
  let id: pthread_t

  @inline(__always) static var current: ThreadIdentity { ThreadIdentity(id: pthread_self()) }

  @inline(__always) func isSame(as other: ThreadIdentity) -> Bool {
    pthread_equal(id, other.id) != 0
  }
}
