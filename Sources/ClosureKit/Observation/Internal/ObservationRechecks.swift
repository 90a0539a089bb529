public import Dispatch

/// Runs `job` on `queue` after `delay`: how an `@Observable` observation waits (the hop's grace
/// period, the re-checks). `asyncAfter` in the library; a test passes one that it runs by hand.
@usableFromInline
typealias RunAfter =
  @Sendable (
    _ queue: DispatchQueue, _ delay: DispatchTimeInterval, _ job: @escaping @Sendable () -> Void
  ) -> Void

/// The re-checks that follow a hop which had to re-read the key path (a write was seen from off the
/// hop's queue or thread).
///
/// Observation has no did-change hook: a write's willSet fires the arm, and its store may land
/// after the hop has re-armed and re-read (a writer preempted between the two). The new arm was
/// installed after that willSet, so the late store fires nothing. The hop therefore reads the key
/// path again, ``count`` times, 1, 2, 4, … 2,048 ms apart (4.095 s after the hop in all), and
/// delivers one more post change whenever the value differs from the last one it delivered. Every
/// write whose willSet came before the hop's arm came before the hop, so a write whose store lands
/// within 4 s of its willSet is seen. A later write fires the new arm, and its own hop starts the
/// re-checks again; the old ones stop.
@usableFromInline
enum ObservationRechecks {
  /// How many re-checks follow a hop.
  @inlinable static var count: Int { 12 }

  /// How long re-check `step` (from 0) waits after the one before it (after the hop for 0).
  @inlinable
  static func delay(before step: Int) -> DispatchTimeInterval {
    .milliseconds(1 << step)
  }

  /// The library's ``RunAfter``: `asyncAfter` on the queue.
  @usableFromInline static let dispatch: RunAfter = { queue, delay, job in
    queue.asyncAfter(deadline: .now() + delay, execute: job)
  }

  /// Whether `a` and `b` are the same value: `==` for an `Equatable` type, else the same bytes.
  ///
  /// Never `true` for different values: two copies with the same bytes hold the same bits and the
  /// same references (the copy held here keeps each referenced object alive, so no address is
  /// reused). Each value is copied into zeroed memory first, so bytes that a copy leaves unwritten
  /// (padding, the unused part of an existential's buffer) compare equal.
  @inlinable
  static func isSame<Value>(_ a: Value, _ b: Value) -> Bool {
    if let equatable = Value.self as? any Equatable.Type {
      return isEqual(equatable, a, b)
    }
    return hasSameBytes(a, b)
  }

  @usableFromInline
  static func isEqual<E: Equatable, Value>(_: E.Type, _ a: Value, _ b: Value) -> Bool {
    // `Value` is `E`; a failed cast counts as a difference (one more callback, never one fewer).
    guard let a = a as? E, let b = b as? E else { return false }
    return a == b
  }

  @usableFromInline
  static func hasSameBytes<Value>(_ a: Value, _ b: Value) -> Bool {
    let size = MemoryLayout<Value>.size
    guard size > 0 else { return true }
    let stride = MemoryLayout<Value>.stride
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 2 * stride, alignment: MemoryLayout<Value>.alignment)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * stride)
    let first = buffer.initializeMemory(as: Value.self, to: a)
    let second = (buffer + stride).initializeMemory(as: Value.self, to: b)
    defer {
      first.deinitialize(count: 1)
      second.deinitialize(count: 1)
    }
    return UnsafeRawBufferPointer(start: buffer, count: size)
      .elementsEqual(UnsafeRawBufferPointer(start: buffer + stride, count: size))
  }
}
