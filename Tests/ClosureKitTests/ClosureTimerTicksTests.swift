import ClosureKitTesting
import Testing

@testable import ClosureKit

/// `ClosureTimer.ticks(_:clock:)`: the timer's fire counts as an `AsyncSequence`, newest kept, the
/// timer ended with the loop.
@Suite struct ClosureTimerTicksTests {
  let clock = ManualClock()

  @Test func ticksAreTheFireCountsFromOneAndEndWithTheRepeatCount() async {
    let ticks = ClosureTimer.ticks(.every(.seconds(1), repeatCount: 3), clock: clock)
    var iterator = ticks.makeAsyncIterator()
    var seen: [Int?] = []
    for _ in 1...3 {
      clock.advance(by: .seconds(1))
      seen.append(await iterator.next())
    }
    seen.append(await iterator.next())
    #expect(seen == [1, 2, 3, nil])
    #expect(ticks.skippedTickCount == 0)
  }

  @Test func aTickThatFallsDueBeforeTheLoopAsksWaitsForIt() async {
    let ticks = ClosureTimer.ticks(.after(.seconds(2)), clock: clock)
    clock.advance(by: .seconds(2))
    var seen: [Int] = []
    for await tick in ticks { seen.append(tick) }
    #expect(seen == [1])
  }

  @Test func aSlowConsumerGetsTheNewestTickAndTheSkippedCount() async {
    let ticks = ClosureTimer.ticks(.every(.seconds(1)), clock: clock)
    var iterator = ticks.makeAsyncIterator()
    // Three calls, one per tick; the loop takes none of them in time.
    for _ in 1...3 { clock.advance(by: .seconds(1)) }
    #expect(await iterator.next() == 3)
    #expect(iterator.skippedTickCount == 2)
    #expect(ticks.skippedTickCount == 2)
    // The timer coalesces ticks 4, 5 and 6 into call 4 (skipping 2); call 5 replaces it (tick 7).
    clock.advance(by: .seconds(3))
    clock.advance(by: .seconds(1))
    #expect(await iterator.next() == 5)
    #expect(ticks.skippedTickCount == 3)
    // On time again.
    clock.advance(by: .seconds(1))
    #expect(await iterator.next() == 6)
    #expect(ticks.skippedTickCount == 0)
  }

  @Test func breakingOutOfTheLoopEndsTheTimer() async {
    let ticks = ClosureTimer.ticks(.every(.seconds(1)), clock: clock)
    clock.advance(by: .seconds(1))
    var seen: [Int] = []
    for await tick in ticks {
      seen.append(tick)
      if tick == 2 { break }
      clock.advance(by: .seconds(1))
    }
    // The sequence is still alive here; the loop's end alone ended the timer.
    #expect(seen == [1, 2])
    #expect(ticks.timer?.isValid == false)
  }

  @Test func cancellingTheIteratingTaskEndsTheTimerAndTheLoop() async {
    let ticks = ClosureTimer.ticks(.every(.seconds(1)), clock: clock)
    let loop = Task {
      var count = 0
      for await _ in ticks { count += 1 }
      return count
    }
    loop.cancel()
    // Whether the cancellation lands before the loop waits or while it waits, the loop ends.
    #expect(await loop.value == 0)
    #expect(ticks.timer?.isValid == false)
    // Later ticks are not delivered to anyone.
    clock.advance(by: .seconds(5))
    var iterator = ticks.makeAsyncIterator()
    #expect(await iterator.next() == nil)
  }

  @Test func droppingTheSequenceUnreadEndsTheTimer() {
    var ticks: ClosureTimer.Ticks? = ClosureTimer.ticks(.every(.seconds(1)), clock: clock)
    let timer = ticks?.timer
    #expect(timer?.isValid == true)
    ticks = nil
    #expect(timer?.isValid == false)
  }
}
