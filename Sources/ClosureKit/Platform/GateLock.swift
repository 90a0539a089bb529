#if canImport(Darwin)
  public import Darwin
#elseif canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Android)
  public import Android
#endif

/// A `pthread` mutex with a condition variable, protecting `value`; the condition lets a writer of
/// an ``Observed`` wait while another thread runs a `modify` body (never while handlers run).
///
/// `@unchecked Sendable`: `value` is read and written only between `lock()` and `unlock()`.
@usableFromInline
final class GateLock<Value>: @unchecked Sendable {
  // The mutex and the condition come first, so that their offsets do not depend on `Value`: code
  // not specialised for it (an ``Observed``'s cancellation, through `SubscriptionSource`) locks
  // without looking up the type's metadata.

  /// The mutex, in stable heap memory as pthreads requires.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Signalled when the gate is released.
  @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
  /// The protected value; exclusivity is unchecked because the mutex already serialises access.
  @usableFromInline @exclusivity(unchecked) var value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    condition = UnsafeMutablePointer.allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    let mutexResult = pthread_mutex_init(mutex, nil)
    if mutexResult != 0 { failPrecondition("pthread_mutex_init failed: \(mutexResult)") }
    let conditionResult = pthread_cond_init(condition, nil)
    if conditionResult != 0 { failPrecondition("pthread_cond_init failed: \(conditionResult)") }
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable func lock() { pthread_mutex_lock(mutex) }
  @inlinable func unlock() { pthread_mutex_unlock(mutex) }
  /// Releases the mutex until the condition is signalled, then takes it again. Only while locked.
  @usableFromInline func wait() { pthread_cond_wait(condition, mutex) }
  /// Wakes every waiter. Only while locked.
  @usableFromInline func broadcast() { pthread_cond_broadcast(condition) }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
