#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

/// The scheduling priority of the timer scheduler's thread: what Dispatch gives work of quality of
/// service *user-initiated*.
///
/// On Linux, Dispatch (Swift 6.3 and later) runs a `.userInitiated` queue's work on threads with
/// nice value -2 (`_dispatch_pp_to_nice` in swift-corelibs-libdispatch), 1.55 times the CPU share
/// of a default thread when cores are contended; on Apple platforms the QoS class is the priority.
/// Measured under load (`closurekit-bench timers-load`), that share is what kept a 10 ms
/// `DispatchSourceTimer` on its beat where the scheduler thread, at the default priority, lost
/// most of its ticks.
package enum SchedulerThreadPriority {
  /// The nice value Dispatch gives `.userInitiated` work on Linux.
  package static let userInitiatedNice: Int32 = -2

  /// Gives the calling thread user-initiated priority, as Dispatch does for its own workers: best
  /// effort, as raising a thread's priority may need a privilege (on Linux, `CAP_SYS_NICE` or an
  /// `RLIMIT_NICE` that allows it). Returns whether it took effect.
  @discardableResult
  package static func raiseCurrentThread() -> Bool {
    #if canImport(Darwin)
      pthread_set_qos_class_self_np(QOS_CLASS_USER_INITIATED, 0) == 0
    #elseif canImport(Glibc)
      // Linux: the nice value is per thread, and `who` 0 with `PRIO_PROCESS` is the calling thread.
      setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, userInitiatedNice) == 0
    #else
      false
    #endif
  }

  /// Whether ``raiseCurrentThread()`` takes effect in this process, tried on a throwaway thread
  /// (for tests).
  package static func isRaisingPermitted() -> Bool {
    final class Result: @unchecked Sendable {
      // @unchecked Sendable: written by the thread before it ends, read after `pthread_join`.
      var raised = false
    }
    let result = Result()
    let thread = startThread { result.raised = raiseCurrentThread() }
    pthread_join(thread, nil)
    return result.raised
  }

  /// The calling thread's nice value on Linux (for tests); `nil` elsewhere.
  package static func currentThreadNice() -> Int32? {
    #if canImport(Darwin)
      nil
    #elseif canImport(Glibc)
      // -1 is also a valid priority: a failure shows only in `errno`.
      errno = 0
      let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      return errno == 0 ? nice : nil
    #else
      nil
    #endif
  }
}
