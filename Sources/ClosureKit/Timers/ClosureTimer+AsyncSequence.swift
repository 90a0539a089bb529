extension ClosureTimer {
  /// The ticks of a new timer as an `AsyncSequence`: each element is the timer's ``fireCount`` at
  /// that tick (1, 2, 3, …).
  ///
  /// ```swift
  /// for await tick in ClosureTimer.ticks(.every(.seconds(1), repeatCount: 3)) {
  ///   print("tick", tick)
  /// }
  /// ```
  ///
  /// The timer starts now, when `ticks` is called, not when the loop starts; a tick that falls due
  /// before the loop asks for it waits in the sequence.
  ///
  /// - Parameters:
  ///   - cadence: When the ticks fall due; the sequence ends after the last tick of a one-shot
  ///     cadence or of a `repeatCount`.
  ///   - clock: The clock that measures the cadence. Defaults to `ContinuousClock()`; tests pass a
  ///     `ManualClock`.
  /// - Returns: The ticks, a single-pass sequence.
  ///
  /// > Important: The sequence keeps the newest tick only: when the loop is slower than the timer,
  /// > the ticks it did not take are dropped and counted in ``Ticks/skippedTickCount``, together
  /// > with the ticks the timer itself coalesced (tested by
  /// > `ClosureTimerTicksTests.aSlowConsumerGetsTheNewestTickAndTheSkippedCount`). The timer ends
  /// > when the loop ends (the iterator is dropped), when the iterating task is cancelled, or when
  /// > the sequence and its iterator are dropped (tested by
  /// > `ClosureTimerTicksTests.breakingOutOfTheLoopEndsTheTimer` and
  /// > `ClosureTimerTicksTests.cancellingTheIteratingTaskEndsTheTimerAndTheLoop`). One loop per
  /// > sequence.
  public static func ticks(
    _ cadence: TimerCadence,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Ticks {
    let buffer = TickBuffer()
    let finalCall = cadence.callLimit
    let timer = ClosureTimer.schedule(cadence, clock: clock) { timer in
      let fireCount = timer.fireCount
      let isFinal = finalCall.map { fireCount >= $0 } ?? false
      buffer.deliver(fireCount, skipped: timer.skippedTickCount, isFinal: isFinal)
    }
    buffer.attach(timer)
    return Ticks(ending: TicksEnding(buffer))
  }

  /// The ticks of a timer, from ``ClosureTimer/ticks(_:clock:)``: an `AsyncSequence` of the
  /// timer's ``ClosureTimer/fireCount`` at each tick, keeping the newest when the loop is slow.
  ///
  /// ```swift
  /// let ticks = ClosureTimer.ticks(.every(.seconds(5)))
  /// for await tick in ticks {
  ///   print("tick", tick, "stands for", 1 + ticks.skippedTickCount, "ticks")
  /// }
  /// ```
  ///
  /// > Important: One consumer per sequence. The timer ends when the loop ends, when the iterating
  /// > task is cancelled (the loop then ends with no more element), or when the sequence and its
  /// > iterator are dropped.
  public struct Ticks: AsyncSequence, Sendable {
    /// One tick: the timer's ``ClosureTimer/fireCount`` at that tick.
    public typealias Element = Int
    /// The sequence never throws.
    public typealias Failure = Never

    /// Ends the timer when the last copy of the sequence and of its iterators is gone.
    let ending: TicksEnding

    /// The number of ticks the latest element stands for beyond one: the ticks the loop did not
    /// take in time and the ticks the timer coalesced, as ``ClosureTimer/skippedTickCount`` counts
    /// them. 0 while the loop keeps up.
    ///
    /// ```swift
    /// let ticks = ClosureTimer.ticks(.every(.seconds(1)))
    /// for await _ in ticks { print("skipped", ticks.skippedTickCount) }
    /// ```
    public var skippedTickCount: Int { ending.buffer.skippedTickCount }

    /// The timer behind the sequence, for tests.
    package var timer: ClosureTimer? { ending.buffer.timer }

    /// Creates the iterator.
    ///
    /// ```swift
    /// var iterator = ClosureTimer.ticks(.every(.seconds(1))).makeAsyncIterator()
    /// let first = await iterator.next()
    /// ```
    ///
    /// - Returns: The iterator; dropping it ends the timer.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(sequence: ending, loop: TicksEnding(ending.buffer))
    }

    /// Waits for the ticks, one at a time.
    ///
    /// ```swift
    /// var iterator = ClosureTimer.ticks(.every(.seconds(1))).makeAsyncIterator()
    /// while let tick = await iterator.next() { print(tick) }
    /// ```
    public struct AsyncIterator: AsyncIteratorProtocol {
      /// Keeps the sequence's ending alive while iterating.
      let sequence: TicksEnding
      /// Ends the timer when the loop drops the iterator.
      let loop: TicksEnding

      /// The number of ticks the latest element stands for beyond one, as
      /// ``Ticks/skippedTickCount``.
      ///
      /// ```swift
      /// if let tick = await iterator.next() { print(tick, iterator.skippedTickCount) }
      /// ```
      public var skippedTickCount: Int { loop.buffer.skippedTickCount }

      /// The next tick's ``ClosureTimer/fireCount``, waiting for it; `nil` once the timer ended.
      ///
      /// ```swift
      /// let tick = await iterator.next()
      /// ```
      ///
      /// - Returns: The newest tick not taken yet, or `nil`.
      public mutating func next() async -> Int? {
        await loop.buffer.next()
      }

      /// The next tick, as ``next()``; the sequence never throws.
      ///
      /// ```swift
      /// let tick = await iterator.next(isolation: #isolation)
      /// ```
      ///
      /// - Parameter actor: The caller's actor.
      /// - Returns: The newest tick not taken yet, or `nil`.
      public mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
        await loop.buffer.next()
      }
    }
  }
}

/// An iterator belongs to the task that iterates; share the sequence instead.
@available(*, unavailable)
extension ClosureTimer.Ticks.AsyncIterator: Sendable {}

/// Ends a ``ClosureTimer/Ticks`` timer when deinitialised: one held by the sequence's copies, one
/// by each iterator's.
final class TicksEnding: Sendable {
  let buffer: TickBuffer

  init(_ buffer: TickBuffer) {
    self.buffer = buffer
  }

  deinit {
    buffer.end()
  }
}
