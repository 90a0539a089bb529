// The pthread seam of ClosureKit, in one file so that a reader sees it at once: the lock of every
// module (`Locked`), the lock with a condition (`GateLock`), starting threads, and a thread's
// identity (`ThreadIdentity`). Apple branches first; each is type-checked against Apple's SDK.

internal import Synchronization

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

/// Stops the program when a `pthread_*` call of a lock fails: `EDEADLK` is a re-lock by the holding
/// thread (caught in debug builds, where the mutex is error-checking), `EPERM` an unlock by
/// another thread. Out of line, so the lock's fast path stays small.
@usableFromInline @inline(never)
func lockFailed(_ call: StaticString, _ result: Int32) -> Never {
  failPrecondition(
    "\(call) failed with \(result)"
      + (result == EDEADLK ? " (EDEADLK: a ClosureKit lock taken again by the thread holding it)" : ""))
}

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

// MARK: - GateLock

/// A `pthread` mutex with a condition variable, protecting a value: the lock of an ``Observed``,
/// whose writers wait while another thread runs a `modify` body (never while handlers run).
///
/// Used only through ``withLock(waitingWhile:_:)``: the body runs once the predicate is false,
/// and the lock wakes its waiters after any body while some wait (each checks its predicate
/// again), so no caller signals by hand and none can forget to. As ``Locked``, every `pthread_*`
/// result is checked and, in debug builds, the mutex is error-checking: a re-lock traps.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, under the mutex;
/// `waiters` likewise.
@usableFromInline
final class GateLock<Value>: @unchecked Sendable {
  // The mutex and the condition come first, so that their offsets do not depend on `Value`.

  /// The mutex, in stable heap memory (allocated once, freed by deinit) as pthreads requires.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Signalled after a body runs while some thread waits.
  @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
  /// How many threads wait on ``condition``. Guarded by the mutex.
  @usableFromInline @exclusivity(unchecked) var waiters = 0
  /// The protected value; exclusivity is unchecked because the mutex already serialises access.
  @usableFromInline @exclusivity(unchecked) var value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    condition = UnsafeMutablePointer.allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    defer { pthread_mutexattr_destroy(&attributes) }
    #if DEBUG
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    #endif
    let mutexResult = pthread_mutex_init(mutex, &attributes)
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

  /// Runs `body` with exclusive access to the value, once `isBlocked` is false: until then the
  /// thread sleeps, the mutex released. Wakes the waiting threads after `body` if there are any.
  @inlinable @inline(__always)
  func withLock<Result>(
    waitingWhile isBlocked: (inout Value) -> Bool = { _ in false },
    _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    gateCheck(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    defer {
      if waiters > 0 { gateCheck(pthread_cond_broadcast(condition), "pthread_cond_broadcast") }
      gateCheck(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }
    while isBlocked(&value) {
      waiters += 1
      gateCheck(pthread_cond_wait(condition, mutex), "pthread_cond_wait")
      waiters -= 1
    }
    return try body(&value)
  }
}

/// Checks a `pthread_*` result of a ``GateLock`` (``lockFailed(_:_:)`` when it is not 0).
@inlinable @inline(__always)
func gateCheck(_ result: Int32, _ call: StaticString) {
  if result != 0 { lockFailed(call, result) }
}

// MARK: - Thread identity

// A thread's identity is a token that is never reused. `pthread_self()` is not one: it is the
// address of the thread's control block, which the C library hands to the next thread it starts
// once the thread has been joined or has ended detached, so a new thread could pass for an old one
// that some state still names (a delivering thread, the writer of a change).
//
// The token comes from a global counter, the first time a thread asks, and is kept in the thread's
// own slot of a `pthread_key_t` (created once, never deleted; there is no destructor, since the
// slot holds an integer, not memory). On both Darwin and Glibc, `pthread_getspecific` reads the
// slot without a lock or a system call.

/// The key of every thread's token slot: created by the first thread that asks for a token.
@usableFromInline let threadTokenKey: pthread_key_t = makeThreadTokenKey()

/// The number of tokens handed out so far.
private let threadTokenCount = Atomic<Int>(0)

/// Creates ``threadTokenKey``.
private func makeThreadTokenKey() -> pthread_key_t {
  #if canImport(Darwin)
    var key: pthread_key_t = 0
  #else
    var key = pthread_key_t()
  #endif
  let result = pthread_key_create(&key, nil)
  if result != 0 { failPrecondition("pthread_key_create failed: \(result)") }
  return key
}

/// The calling thread's token: a positive integer that no other thread of the process has had or
/// will have.
///
/// Not callable from an `async` function on Apple platforms (`pthread_getspecific` is unavailable
/// from async code there): a task may change threads at any suspension, so a task has no thread
/// identity to ask for. Synchronous code called from a task may ask: it runs on one thread.
@inlinable
var currentThreadID: Int {
  if let stored = pthread_getspecific(threadTokenKey) {
    return Int(bitPattern: stored)
  }
  return makeThreadToken()
}

/// Hands the calling thread its token, which it has not got yet, and stores it in its slot.
@usableFromInline
func makeThreadToken() -> Int {
  let count = threadTokenCount.add(1, ordering: .relaxed).newValue
  // Stop rather than reuse a token (2^63 threads on a 64-bit platform; 2^31 on a 32-bit one).
  if count == Int.max { failPrecondition("more threads than ClosureKit can tell apart") }
  let token = count
  let result = pthread_setspecific(threadTokenKey, UnsafeRawPointer(bitPattern: token))
  if result != 0 { failPrecondition("pthread_setspecific failed: \(result)") }
  return token
}

/// The calling thread's handle, `pthread_self()`, as an integer: it tells apart the threads alive
/// at one moment (the C library hands a handle to a new thread only once its old thread has ended),
/// which is all an ``Observed`` box needs of its delivering or modifying thread, alive while it
/// delivers or modifies. Cheaper than ``currentThreadID`` (no thread-local slot to look up); use the
/// token wherever a thread is remembered after it may have ended.
@inlinable
var currentThreadHandle: Int {
  #if canImport(Darwin)
    Int(bitPattern: pthread_self())
  #else
    Int(bitPattern: UInt(pthread_self()))
  #endif
}

/// The identity of a thread: its token (``currentThreadID``), which no later thread reuses.
@usableFromInline
struct ThreadIdentity: Equatable, Sendable {
  /// The thread's token.
  @usableFromInline let token: Int

  @inlinable
  init(token: Int) {
    self.token = token
  }

  /// The calling thread.
  @inlinable static var current: ThreadIdentity {
    ThreadIdentity(token: currentThreadID)
  }
}

// MARK: - Cancel effects

// How many cancels' effects the calling thread is running (a cancelled handler's release, an
// `onCancel` closure): a cancel made from inside them does not wait for another thread's
// (`CancelGate`), so that it can never wait for itself. The count lives in memory of the thread's
// own, allocated the first time it cancels and freed by the key's destructor when the thread
// ends; the thread's slot of a `pthread_key_t` points to it, so that a cancel reads the slot once
// (`pthread_getspecific`, no lock, no system call) and then counts with plain loads and stores.

/// The key of every thread's cancel-effects counter.
@usableFromInline let cancelEffectsKey: pthread_key_t = makeCancelEffectsKey()

/// Creates ``cancelEffectsKey``, whose destructor frees a thread's counter.
private func makeCancelEffectsKey() -> pthread_key_t {
  #if canImport(Darwin)
    var key: pthread_key_t = 0
    let result = pthread_key_create(&key) { counter in counter.deallocate() }
  #else
    var key = pthread_key_t()
    let result = pthread_key_create(&key) { counter in counter?.deallocate() }
  #endif
  if result != 0 { failPrecondition("pthread_key_create failed: \(result)") }
  return key
}

/// The calling thread's cancel-effects counter: it is the thread's alone, so plain loads and
/// stores suffice, and it lives until the thread ends.
@inlinable
var cancelEffectsCounter: UnsafeMutablePointer<Int> {
  if let stored = pthread_getspecific(cancelEffectsKey) { return stored.assumingMemoryBound(to: Int.self) }
  return makeCancelEffectsCounter()
}

/// Allocates the calling thread's counter, at 0, and stores it in its slot.
@usableFromInline
func makeCancelEffectsCounter() -> UnsafeMutablePointer<Int> {
  let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  counter.initialize(to: 0)
  let result = pthread_setspecific(cancelEffectsKey, counter)
  if result != 0 { failPrecondition("pthread_setspecific failed: \(result)") }
  return counter
}

/// The number of cancels whose effects the calling thread is running; 0 outside them.
@inlinable
var cancelEffectsDepth: Int {
  guard let stored = pthread_getspecific(cancelEffectsKey) else { return 0 }
  return stored.load(as: Int.self)
}
