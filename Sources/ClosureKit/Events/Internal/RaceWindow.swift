// A seam of debug builds for the tests of the core's races: code a test runs, on its own thread,
// at a named point of a delivery where another thread could act (after the lock, before the
// call), so that the interleaving a race would need is made on purpose and the test is exact.
// Release builds compile every `pass` to nothing.

#if DEBUG
  public import Synchronization
#endif

/// The points of the core where a ``RaceWindow`` hook can run.
@usableFromInline
enum RacePoint: Sendable {
  /// A delivery took the single handler's box (`SingleHandler.swift`) and released the lock; the
  /// call has not started.
  case singleHandlerTaken
}

/// Hooks that tests install for one thread and one ``RacePoint`` (debug builds only).
///
/// <!-- example: skip internal and debug-only: SingleHandlerFastPathTests runs this very code -->
/// ```swift
/// let event = Event<Int>()
/// let token = event.addHandler { print($0) }
/// RaceWindow.at(.singleHandlerTaken, run: { token.cancel() }) {
///   event.send(2)  // prints nothing: the cancel returned before the call started
/// }
/// ```
///
/// Threading: a hook runs on the thread that installed it, only while its `perform` body runs;
/// other threads' deliveries never run it.
@usableFromInline
enum RaceWindow {
  #if DEBUG
    /// How many hooks are installed: deliveries look up nothing while none is.
    @usableFromInline static let installed = Atomic<Int>(0)
    /// The hooks, by thread (``currentThreadHandle``) and point.
    @usableFromInline static let hooks = Locked<[RaceHookKey: @Sendable () -> Void]>([:])
  #endif

  /// Runs `hook` whenever this thread reaches `point` while `perform` runs; returns what `perform`
  /// returns. In release builds the hook never runs.
  static func at<Result>(
    _ point: RacePoint,
    run hook: @escaping @Sendable () -> Void,
    perform: () throws -> Result
  ) rethrows -> Result {
    #if DEBUG
      let key = RaceHookKey(thread: currentThreadHandle, point: point)
      hooks.withLock { $0[key] = hook }
      installed.add(1, ordering: .sequentiallyConsistent)
      defer {
        hooks.withLock { $0[key] = nil }
        installed.subtract(1, ordering: .sequentiallyConsistent)
      }
    #endif
    return try perform()
  }

  /// Runs this thread's hook for `point`, if a test installed one (debug builds only).
  @inlinable @inline(__always)
  static func pass(_ point: RacePoint) {
    #if DEBUG
      guard installed.load(ordering: .relaxed) > 0 else { return }
      let key = RaceHookKey(thread: currentThreadHandle, point: point)
      if let hook = hooks.withLock({ $0[key] }) { hook() }
    #endif
  }
}

/// A hook's place: a thread and a point.
@usableFromInline
struct RaceHookKey: Hashable, Sendable {
  @usableFromInline let thread: Int
  @usableFromInline let point: RacePoint

  @inlinable
  init(thread: Int, point: RacePoint) {
    self.thread = thread
    self.point = point
  }
}
