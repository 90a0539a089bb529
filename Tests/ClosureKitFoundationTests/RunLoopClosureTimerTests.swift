import ClosureKit
import ClosureKitFoundation
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
      let timer = ClosureTimer.schedule(every: .milliseconds(10), repeatCount: 3, in: runLoop) { _ in
        threads.append(Thread.current.threadDictionary[runLoopThreadName] as? Bool == true)
      }
      timerBox.withLock { $0 = timer }
      return { !timer.isValid }
    }
    #expect(await finished.wait(timeout: .seconds(10)))
    #expect(threads.values == [true, true, true])
    #expect(timerBox.withLock { $0?.isValid } == false)
  }

  @Test(.timeLimit(.minutes(1)))
  func timerInAModeTheRunLoopDoesNotRunNeverFires() async {
    let calls = TimerCallCounter()
    let modeTimerFired = ClosureKitTesting.Expectation()
    let finished = onRunLoopThread { runLoop in
      let other = ClosureTimer.schedule(after: .milliseconds(1), in: runLoop, forMode: RunLoop.Mode("other")) { _ in
        calls.increment()
      }
      ClosureTimer.schedule(after: .milliseconds(30), in: runLoop) { _ in modeTimerFired.fulfill() }
      return { modeTimerFired.isFulfilled && other.isValid }
    }
    #expect(await finished.wait(timeout: .seconds(10)))
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
      let timer = ClosureTimer.schedule(every: .milliseconds(1), in: RunLoop.current) { _ in calls.increment() }
      timerBox.withLock { $0 = timer }
      scheduled.fulfill()
    }
    thread.start()
    #expect(await scheduled.wait(timeout: .seconds(5)))
    let witness = ClosureKitTesting.Expectation()
    ClosureTimer.schedule(after: .milliseconds(30)) { _ in witness.fulfill() }
    #expect(await witness.wait(timeout: .seconds(5)))
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
        timer = ClosureTimer.schedule(every: .milliseconds(5), in: runLoop) { timer in
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
    #expect(await finished.wait(timeout: .seconds(10)))
    #expect(calls.value == 2)
    #expect(released.withLock { $0 })
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
