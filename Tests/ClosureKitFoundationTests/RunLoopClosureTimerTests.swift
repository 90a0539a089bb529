import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Foundation
import Synchronization
import Testing

/// The thread-dictionary key that marks the threads `onRunLoopThread` starts.
private let runLoopThreadName = "closurekit-runloop-test"

/// Runs `body` on a new thread, then that thread's run loop in `mode` until `isDone` or 5 s.
private func onRunLoopThread(
  mode: RunLoop.Mode = .default,
  _ body: @escaping @Sendable (RunLoop) -> @Sendable () -> Bool
) -> ClosureKitTesting.Expectation {
  let finished = ClosureKitTesting.Expectation()
  let thread = Thread {
    Thread.current.threadDictionary[runLoopThreadName] = true
    let runLoop = RunLoop.current
    let isDone = body(runLoop)
    let deadline = Date(timeIntervalSinceNow: 5)
    while !isDone(), Date() < deadline {
      _ = runLoop.run(mode: mode, before: Date(timeIntervalSinceNow: 0.05))
    }
    finished.fulfill()
  }
  thread.start()
  return finished
}

@Suite struct RunLoopClosureTimerTests {
  @Test(.timeLimit(.minutes(1)))
  func repeatingTimerFiresOnTheRunLoopsThreadWhileItRuns() async {
    let threads = TimerRecorder<Bool>()
    let timerBox = Mutex<ClosureTimer?>(nil)
    let finished = onRunLoopThread { runLoop in
      let timer = ClosureTimer.schedule(.every(.milliseconds(10), repeatCount: 3), in: runLoop) { _ in
        threads.append(Thread.current.threadDictionary[runLoopThreadName] as? Bool == true)
      }
      timerBox.withLock { $0 = timer }
      return { !timer.isValid }
    }
    #expect(await finished.wait(timeout: crossThreadDeadline))
    #expect(threads.values == [true, true, true])
    #expect(timerBox.withLock { $0?.isValid } == false)
  }

  @Test(.timeLimit(.minutes(1)))
  func timerInAModeTheRunLoopDoesNotRunNeverFires() async {
    let calls = TimerCallCounter()
    let modeTimerFired = ClosureKitTesting.Expectation()
    let finished = onRunLoopThread { runLoop in
      let other = ClosureTimer.schedule(.after(.milliseconds(1)), in: runLoop, forMode: RunLoop.Mode("other")) { _ in
        calls.increment()
      }
      ClosureTimer.schedule(.after(.milliseconds(30)), in: runLoop) { _ in modeTimerFired.fulfill() }
      return { modeTimerFired.isFulfilled && other.isValid }
    }
    #expect(await finished.wait(timeout: crossThreadDeadline))
    #expect(modeTimerFired.isFulfilled)
    #expect(calls.value == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func runLoopTimerIsInertWhileItsRunLoopDoesNotRun() async {
    // Scheduled on a thread that never runs its run loop: a clock-driven 30 ms timer is the witness.
    let calls = TimerCallCounter()
    let scheduled = ClosureKitTesting.Expectation()
    let timerBox = Mutex<ClosureTimer?>(nil)
    let thread = Thread {
      let timer = ClosureTimer.schedule(.every(.milliseconds(1)), in: RunLoop.current) { _ in calls.increment() }
      timerBox.withLock { $0 = timer }
      scheduled.fulfill()
    }
    thread.start()
    #expect(await scheduled.wait(timeout: crossThreadDeadline))
    let witness = ClosureKitTesting.Expectation()
    ClosureTimer.schedule(.after(.milliseconds(30))) { _ in witness.fulfill() }
    #expect(await witness.wait(timeout: crossThreadDeadline))
    #expect(calls.value == 0)
    timerBox.withLock { $0?.invalidate() }
  }

  @Test(.timeLimit(.minutes(1)))
  func handlerCanInvalidateItsRunLoopTimerAndItsCapturesAreReleased() async {
    let calls = TimerCallCounter()
    let released = Mutex<Bool>(false)
    let finished = onRunLoopThread { runLoop in
      let timer: ClosureTimer
      let weakCaptured: WeakTimerCapture
      do {
        let captured = TimerCapture()
        weakCaptured = WeakTimerCapture(captured)
        timer = ClosureTimer.schedule(.every(.milliseconds(5)), in: runLoop) { timer in
          _ = captured.name
          calls.increment()
          if timer.fireCount == 2 { timer.invalidate() }
        }
      }
      return {
        if timer.isValid { return false }
        released.withLock { $0 = weakCaptured.value == nil }
        return true
      }
    }
    #expect(await finished.wait(timeout: crossThreadDeadline))
    #expect(calls.value == 2)
    #expect(released.withLock { $0 })
  }
}

/// Where Linux lists this process's open file descriptors; other systems have no such directory.
private let descriptorDirectory = "/proc/self/fd"

/// Whether ``openDescriptorCount()`` can count (Linux).
private let canCountDescriptors = FileManager.default.fileExists(atPath: descriptorDirectory)

/// The number of file descriptors this process has open.
private func openDescriptorCount() -> Int {
  (try? FileManager.default.contentsOfDirectory(atPath: descriptorDirectory).count) ?? 0
}

/// What each thread of ``descriptorsLeftByRunLoopTimerThreads(_:ending:)`` does with its timer
/// before it exits.
private enum TimerEnding: Sendable, Codable {
  /// Invalidated on the thread, then dropped.
  case invalidatedAndDropped
  /// Invalidated on the thread, and kept (returned to the caller) past the thread's exit.
  case invalidatedAndKept
  /// Left scheduled when the thread exits, and dropped.
  case leftScheduled
}

/// Runs `threads` threads that each schedule a 1 ms run-loop timer on their own run loop, run it
/// until the timer has fired, end the timer as `ending` says and exit. Then waits (5 s at most)
/// until the process has no more descriptors open than before, and returns how many more it has
/// (zero or less: the process may also have closed one of its own meanwhile).
///
/// Each CoreFoundation run loop on Linux holds 3 descriptors (an epoll instance, an eventfd for
/// wake-ups and a timerfd) until it is deallocated: a run loop kept past its thread's exit shows
/// up as 3 descriptors. One thread runs first as a warm-up, so that what Foundation opens once
/// per process is not counted.
private func descriptorsLeftByRunLoopTimerThreads(_ threads: Int, ending: TimerEnding) async -> Int {
  let kept = Mutex<[ClosureTimer]>([])
  func runThreads(_ count: Int) async -> Bool {
    let finished = ClosureKitTesting.Expectation(count: count)
    for _ in 0..<count {
      Thread {
        let runLoop = RunLoop.current
        let fired = Mutex(false)
        let timer = ClosureTimer.schedule(.every(.milliseconds(1)), in: runLoop) { _ in
          fired.withLock { $0 = true }
        }
        let deadline = Date(timeIntervalSinceNow: 5)
        while !fired.withLock({ $0 }), Date() < deadline {
          _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        switch ending {
        case .invalidatedAndDropped: timer.invalidate()
        case .invalidatedAndKept:
          timer.invalidate()
          kept.withLock { $0.append(timer) }
        case .leftScheduled: break
        }
        finished.fulfill()
      }.start()
    }
    return await finished.wait(timeout: crossThreadDeadline)
  }
  /// Waits until at most `limit` descriptors are open (the exited threads' run loops are freed
  /// after their threads signal), checking every 5 ms, for 5 s at most.
  func settle(atMost limit: Int) async {
    let settled = ClosureKitTesting.Expectation()
    let check = ClosureTimer.schedule(.every(.milliseconds(5))) { timer in
      if openDescriptorCount() <= limit {
        settled.fulfill()
        timer.invalidate()
      }
    }
    _ = await settled.wait(timeout: .seconds(5))
    check.invalidate()
  }
  let warmUp = openDescriptorCount()
  guard await runThreads(1) else { return Int.max }
  await settle(atMost: warmUp)
  let before = openDescriptorCount()
  guard await runThreads(threads) else { return Int.max }
  await settle(atMost: before)
  let left = openDescriptorCount() - before
  withExtendedLifetime(kept) {}
  return left
}

/// Runs ``descriptorsLeftByRunLoopTimerThreads(_:ending:)`` with 16 threads in a child process
/// (so that no other test opens or closes descriptors meanwhile) and returns its result; `nil` if
/// the child failed.
private func descriptorsLeftInAChildProcess(ending: TimerEnding) async -> Int? {
  let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
    [ending] in
    print("descriptors left:", await descriptorsLeftByRunLoopTimerThreads(16, ending: ending))
  }
  let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
  guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("descriptors left:") }) else { return nil }
  return Int(line.dropFirst("descriptors left:".count).trimmingCharacters(in: .whitespaces))
}

/// Run-loop timers and file descriptors: each test runs in a child process, so that no other test
/// opens or closes descriptors while it counts.
///
/// Runs under ThreadSanitizer again since the timers' redesign (2026-12-05): before it, in 2 of
/// about 22 full ThreadSanitizer runs (2026-12-03) a child exited with 66, ThreadSanitizer's exit
/// code for a report, whose text the exit test does not hand back. The run-loop driver then made
/// Foundation calls and released the Foundation timer under the scheduler's lock, and its relay
/// used `Synchronization.Mutex`, whose contended path ThreadSanitizer does not see as
/// synchronisation; neither is so any more, and 15 runs of `--filter RunLoop` under
/// ThreadSanitizer (with `TSAN_OPTIONS=log_path=…`, which the children inherit) left no report.
@Suite(.enabled(if: canCountDescriptors, "counts open descriptors in /proc/self/fd, which only Linux has"))
struct RunLoopClosureTimerDescriptorTests {
  @Test(.exitTest, .timeLimit(.minutes(2)))
  func aTimerInvalidatedOnAThreadThatExitsLeavesNoDescriptorOpen() async {
    let left = await descriptorsLeftInAChildProcess(ending: .invalidatedAndDropped)
    #expect(left.map { $0 <= 0 } == true, "left \(String(describing: left)) descriptors open")
  }

  @Test(.exitTest, .timeLimit(.minutes(2)))
  func aKeptInvalidatedTimerDoesNotKeepItsExitedThreadsRunLoop() async {
    let left = await descriptorsLeftInAChildProcess(ending: .invalidatedAndKept)
    #expect(left.map { $0 <= 0 } == true, "left \(String(describing: left)) descriptors open")
  }

  @Test(.exitTest, .timeLimit(.minutes(2)))
  func aTimerLeftScheduledDoesNotKeepItsExitedThreadsRunLoop() async {
    let left = await descriptorsLeftInAChildProcess(ending: .leftScheduled)
    #expect(left.map { $0 <= 0 } == true, "left \(String(describing: left)) descriptors open")
  }
}

/// An object whose deallocation a test can observe through a `weak` reference.
private final class TimerCapture: Sendable {
  let name = "tracked"
}

/// A weak reference that a `@Sendable` closure can hold.
private final class WeakTimerCapture: Sendable {
  weak let value: TimerCapture?
  init(_ value: TimerCapture) { self.value = value }
}

/// A thread-safe counter for handlers.
private final class TimerCallCounter: Sendable {
  private let storage = Mutex(0)
  var value: Int { storage.withLock { $0 } }
  func increment() { storage.withLock { $0 += 1 } }
}

/// A thread-safe list that handlers append to.
private final class TimerRecorder<Element: Sendable>: Sendable {
  private let storage = Mutex<[Element]>([])
  var values: [Element] { storage.withLock { $0 } }
  func append(_ element: Element) { storage.withLock { $0.append(element) } }
}
