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
/// will have, and a multiple of 4, so bits 0 and 1 are free for flags (``ObservedStorage`` keeps
/// the delivering thread's token and two flags in one atomic word).
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
  // Stop rather than reuse a token (2^61 threads on a 64-bit platform; 2^29 on a 32-bit one).
  if count > Int.max >> 2 { failPrecondition("more threads than ClosureKit can tell apart") }
  let token = count << 2
  let result = pthread_setspecific(threadTokenKey, UnsafeRawPointer(bitPattern: token))
  if result != 0 { failPrecondition("pthread_setspecific failed: \(result)") }
  return token
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
