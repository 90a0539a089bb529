public import Synchronization

#if canImport(Darwin)
  public import Darwin
#elseif canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Android)
  public import Android
#endif

/// A value protected by a lock word: the lock of every ClosureKit module.
///
/// The lock is one atomic word stored in the object, next to the value, so a `Locked` is one
/// allocation and taking the lock when nobody holds it is one compare-and-exchange, inlined into
/// the caller, and releasing it one exchange. A thread that finds it held spins briefly, then
/// sleeps on a condition variable of ``ParkingLot`` (a fixed table shared by every lock) until the
/// holder releases it; the word's third state, "held with sleepers", tells the releasing thread
/// to wake them. This is the three-state mutex of Ulrich Drepper's *Futexes Are Tricky* (2011),
/// with a `pthread` condition variable in place of the futex system call, which Swift cannot make
/// (`syscall` is variadic).
///
/// Chosen over the alternatives by `Benchmarks/` (issue 17), on Linux with Swift 6.3.1:
/// - `pthread_mutex_t` costs an allocation per lock and about twice the time per lock and unlock
///   (a call into the C library, which checks the mutex's kind); it was a fifth of the time of an
///   event's add + cancel and a third of a send to one handler;
/// - `Synchronization.Mutex` records the owner's thread id with a `gettid` system call on every
///   lock, and ThreadSanitizer does not see its futex slow path as synchronisation, so a contended
///   `Mutex` yields false data-race reports.
///
/// Every acquisition is an acquiring read-modify-write of the word and every release a releasing
/// one, so ThreadSanitizer sees the lock as synchronisation. Not reentrant: taking it again on the
/// thread that holds it never returns (as with a default `pthread_mutex_t`). Not fair: a thread
/// that arrives while a woken sleeper is on its way may take the lock first.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, while the word says
/// held by the caller.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
  /// The protected value; exclusivity is unchecked because the lock already serialises access.
  @usableFromInline @exclusivity(unchecked) var value: Value
  /// `0`: free; `1`: held; `2`: held, and a thread may be sleeping in ``ParkingLot`` for it.
  @usableFromInline let word = Atomic<Int>(0)

  @usableFromInline
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      lockContended()
    }
    defer {
      if word.exchange(0, ordering: .releasing) == 2 { wakeSleepers() }
    }
    return try body(&value)
  }

  /// Takes the lock that another thread holds: spins a little (a critical section is usually a
  /// few dozen instructions), then sleeps until a release wakes it.
  @usableFromInline @inline(never)
  func lockContended() {
    for _ in 0..<64 {
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
    }
    ParkingLot.shared.withBucket(for: self) { bucket in
      // Marks the lock "held with sleepers" and takes it if it was free. The bucket's mutex is
      // held from the exchange to the wait, and a releasing thread takes it before it signals,
      // so the wake-up cannot be lost between the two.
      while word.exchange(2, ordering: .acquiring) != 0 {
        bucket.wait()
      }
    }
  }

  /// Wakes the threads sleeping for this lock (and for any other lock of the same bucket, which
  /// find theirs still held and sleep again).
  @usableFromInline @inline(never)
  func wakeSleepers() {
    ParkingLot.shared.withBucket(for: self) { $0.broadcast() }
  }
}

/// Where the threads that wait for a ``Locked`` sleep: a fixed table of `pthread` mutexes with
/// condition variables, shared by every lock and chosen by the lock's address, allocated once,
/// when a lock is first contended.
///
/// `@unchecked Sendable`: its buckets are only used through their `pthread` mutexes.
final class ParkingLot: @unchecked Sendable {
  /// A mutex and its condition variable, in stable heap memory as pthreads requires.
  struct Bucket {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Releases the bucket's mutex until the condition is broadcast, then takes it again.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every thread waiting on the bucket.
    func broadcast() { pthread_cond_broadcast(condition) }
  }

  /// The one table; never deallocated.
  static let shared = ParkingLot()

  /// A power of two, so that a bucket is chosen with a mask.
  private static let bucketCount = 64
  private let buckets: UnsafeMutablePointer<Bucket>

  private init() {
    buckets = .allocate(capacity: Self.bucketCount)
    for index in 0..<Self.bucketCount {
      let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
      condition.initialize(to: pthread_cond_t())
      let mutexResult = pthread_mutex_init(mutex, nil)
      if mutexResult != 0 { failPrecondition("pthread_mutex_init failed: \(mutexResult)") }
      let conditionResult = pthread_cond_init(condition, nil)
      if conditionResult != 0 { failPrecondition("pthread_cond_init failed: \(conditionResult)") }
      (buckets + index).initialize(to: Bucket(mutex: mutex, condition: condition))
    }
  }

  /// The index of the bucket of `lock`, from its address.
  static func bucketIndex(for lock: AnyObject) -> Int {
    // Objects are at least 16-byte aligned: the low bits carry no information.
    let address = UInt(bitPattern: ObjectIdentifier(lock))
    return Int((address >> 4 ^ address >> 10) & UInt(bucketCount - 1))
  }

  /// Runs `body` holding the mutex of the bucket of `lock`.
  func withBucket(for lock: AnyObject, _ body: (Bucket) -> Void) {
    let bucket = buckets[Self.bucketIndex(for: lock)]
    pthread_mutex_lock(bucket.mutex)
    body(bucket)
    pthread_mutex_unlock(bucket.mutex)
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
