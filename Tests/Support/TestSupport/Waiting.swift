public import ClosureKitTesting
public import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The longest a test waits for work on another thread or task before it reports a failure.
///
/// A passing wait returns at once, so this costs nothing when the code is right; a deadlock fails
/// the test after this long instead of hanging the run. It was 120 s while tests blocked threads
/// of the cooperative pool (a semaphore's wait, a `queue.sync`, a join), which on a 2-core machine
/// starved every other test's tasks (a network test once waited over 30 s for its first line); no
/// test blocks one now (they wait with `Expectation`, whose deadlines, like `LoopbackServer`'s,
/// fire off the pool). 90 s under the sanitizers: a ThreadSanitizer run of every suite at once on
/// 2 cores finished most tests after 15–25 s on an idle machine and 30–40 s in a CI run, so a test
/// that waits from its start (four threads writing 8,000 values to one `Observed` box) missed a
/// 30-s deadline without anything being stuck.
public let crossThreadDeadline: Duration =
  isUnderThreadSanitizer || isUnderAddressSanitizer ? .seconds(90) : .seconds(30)

/// Waits, yielding, until `condition` holds or the deadline passes; never sleeps. Only for checks
/// that hold at once or nearly (it keeps a thread busy): weak references after an invalidation, or
/// an object with associated values, which on Linux another test's sweep of the shared association
/// table can hold for a moment (its weak load makes a strong copy), so that its deinit runs on that
/// thread just after the last reference here is dropped.
public func eventually(within timeout: Duration = crossThreadDeadline, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    if ContinuousClock.now > deadline { return false }
    await Task.yield()
  }
  return true
}

/// Whether this test process runs under ThreadSanitizer (its runtime exports `__tsan_init`).
public let isUnderThreadSanitizer: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// Whether this test process runs under AddressSanitizer (its runtime exports `__asan_init`).
public let isUnderAddressSanitizer: Bool = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil

/// A main-actor screen whose methods `@MainActor` handlers call directly: each call compiles only
/// in a main-actor closure, and asserts at run time that it runs on the main actor.
@MainActor public final class MainActorScreen: Sendable {
  /// The entries noted so far, in order.
  public private(set) var log: [String] = []

  public init() {}

  /// Appends `entry` to the log.
  public func note(_ entry: String) {
    MainActor.assertIsolated()
    log.append(entry)
  }

  /// Appends `entry` to the log, then fulfils `done`: the body of a handler whose run a test waits
  /// for.
  public func note(_ entry: String, fulfilling done: ClosureKitTesting.Expectation) {
    note(entry)
    done.fulfill()
  }
}

/// Waits until the main queue has run every job enqueued before this call (the hops included).
@MainActor public func drainMainQueue() async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.main.async { done.resume() }
  }
}

/// Waits until `queue` has run every job enqueued on it before this call; `false` if it has not
/// by ``crossThreadDeadline``.
public func drained(_ queue: DispatchQueue) async -> Bool {
  let drained = Expectation()
  queue.async { drained.fulfill() }
  return await drained.wait(timeout: crossThreadDeadline)
}
