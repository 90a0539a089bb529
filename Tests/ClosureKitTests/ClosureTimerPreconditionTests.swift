import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Testing

/// Bad arguments stop the process with a precondition failure (checked in a child process).
@Suite struct ClosureTimerPreconditionTests {
  @Test(.exitTest) func negativeDelayIsAPreconditionFailure() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ClosureTimer(.after(.seconds(-1)), clock: ManualClock()) { _ in }
    }
    #expect(stderr(of: result).contains("`delay`"))
  }

  @Test(.exitTest) func zeroIntervalOfARepeatingTimerIsAPreconditionFailure() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ClosureTimer(.every(.zero), clock: ManualClock()) { _ in }
    }
    #expect(stderr(of: result).contains("`interval`"))
  }

  @Test(.exitTest) func negativeIntervalIsAPreconditionFailure() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ClosureTimer.schedule(.every(.milliseconds(-5)), clock: ManualClock()) { _ in }
    }
    #expect(stderr(of: result).contains("`interval`"))
  }

  @Test(.exitTest) func repeatCountBelowOneIsAPreconditionFailure() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ClosureTimer.schedule(.every(.seconds(1), repeatCount: 0), clock: ManualClock()) { _ in }
    }
    #expect(stderr(of: result).contains("`repeatCount`"))
  }

  @Test(.exitTest) func negativeToleranceIsAPreconditionFailure() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ClosureTimer.schedule(.every(.seconds(1), tolerance: .seconds(-1)), clock: ManualClock()) { _ in }
    }
    #expect(stderr(of: result).contains("`tolerance`"))
  }

  @Test(.exitTest) func advancingAManualClockBackwardsIsAPreconditionFailure() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ManualClock().advance(by: .seconds(-1))
    }
    #expect(stderr(of: result).contains("`duration`"))
  }
}

/// The standard error of an exit test, as text.
private func stderr(of result: ExitTest.Result?) -> String {
  String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}
