import ClosureKit
import ClosureKitTesting

extension Chapter {
  static let timers = Chapter(
    name: "timers",
    summary: "ClosureTimer: cadences with no run loop, self-invalidation, owner binding, ManualClock, main actor"
  ) {
    print("1. A 50 ms repeating timer on the real clock, no run loop, three ticks:")
    let (ticks, ticked) = AsyncStream.makeStream(of: Int.self)
    ClosureTimer.schedule(.every(.milliseconds(50), repeatCount: 3)) { timer in
      ticked.yield(timer.fireCount)
      if timer.fireCount == 3 { ticked.finish() }
    }
    for await count in ticks { print("  tick \(count)") }

    print("\n2. A timer that invalidates itself from its handler:")
    let (stops, stopped) = AsyncStream.makeStream(of: Int.self)
    ClosureTimer.schedule(.every(.milliseconds(20))) { timer in
      print("  call \(timer.fireCount)")
      if timer.fireCount == 2 {
        timer.invalidate()
        stopped.yield(timer.fireCount)
        stopped.finish()
      }
    }
    for await count in stops { print("  invalidated itself after \(count) calls") }

    print("\n3. With a ManualClock, time moves only when told to (this is how tests run):")
    let clock = ManualClock()
    var model: StopwatchModel? = StopwatchModel(name: "StopwatchModel")
    let timer = ClosureTimer.schedule(.every(.seconds(1)), owner: model!, clock: clock) { model, timer in
      model.tick(timer.fireCount)
    }
    clock.advance(by: .seconds(1))
    clock.advance(by: .seconds(1))
    print("  releasing the owner:")
    model = nil
    clock.advance(by: .seconds(1))
    print("  timer still valid: \(timer.isValid)")

    print("\n4. Missed ticks are coalesced into one call, which says how many it stands for:")
    let poll = ClosureTimer.schedule(.every(.seconds(1)), clock: clock) { timer in
      print("  one call at \(clock.now.offset), skipped ticks: \(timer.skippedTickCount)")
    }
    clock.advance(by: .milliseconds(3500))
    print("  next deadline on the grid: \(poll.nextDeadline.map { "\($0)" } ?? "none")")
    poll.invalidate()

    print("\n5. perform(after:) is a cancellable delayed block:")
    let save = ClosureTimer.perform(after: .seconds(2), clock: clock) { print("  saved (never printed)") }
    ClosureTimer.perform(after: .seconds(2), clock: clock) { print("  autosave ran") }
    print("  two blocks due in 2 s; the first is cancelled, then the clock advances 2 s:")
    save.cancel()
    clock.advance(by: .seconds(2))

    print("\n6. The main-actor view: its closures are @MainActor, with no annotation:")
    let (shown, show) = AsyncStream.makeStream(of: Void.self)
    ClosureTimer.onMainActor.perform(after: .seconds(1), clock: clock) {
      MainActor.assertIsolated()
      print("  hid the toast, on the main actor")
      show.finish()
    }
    clock.advance(by: .seconds(1))
    for await _ in shown {}
  }
}

/// A view model that binds a timer to itself with `owner:`, so no `[weak self]` is needed.
typealias StopwatchModel = DemoObject

extension StopwatchModel {
  func tick(_ count: Int) { print("  \(name) tick \(count)") }
}
