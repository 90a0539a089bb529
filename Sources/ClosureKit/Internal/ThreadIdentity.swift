#if canImport(Glibc)
  public import Glibc
#elseif canImport(Musl)
  public import Musl
#elseif canImport(Darwin)
  public import Darwin
#elseif canImport(Android)
  public import Android
#endif

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
