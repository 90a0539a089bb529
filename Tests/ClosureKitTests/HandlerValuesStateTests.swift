import Testing

@testable import ClosureKit

/// `HandlerValuesState`, the state machine behind `values`: the interleavings a real run reaches
/// only by chance, driven one step at a time.
@Suite struct HandlerValuesStateTests {
  /// Values arrive between a take that found none and the consumer's suspension: the suspension
  /// takes the first of them, and the next take gets the others, once each, in order. (It used to
  /// hand the first one out again in its batch and then count the buffer short: a consumer on
  /// another thread than the sender saw values out of order under ThreadSanitizer.)
  @Test func aBatchAfterASuspensionTookOneValueHoldsOnlyTheValuesThatWait() async {
    var state = HandlerValuesState<Int>(policy: .unbounded)
    var buffer: [Int] = []
    guard case .suspend = state.take(into: &buffer) else {
      Issue.record("an empty state should make the consumer suspend")
      return
    }
    for value in 1...3 { #expect(state.receive(value) == nil) }
    let first = await withUnsafeContinuation { (continuation: UnsafeContinuation<Int?, Never>) in
      guard case .resume(let value) = state.suspend(continuation) else {
        Issue.record("values wait: the suspension must resume at once")
        return continuation.resume(returning: nil)
      }
      continuation.resume(returning: value)
    }
    #expect(first == 1)
    guard case .batch = state.take(into: &buffer) else {
      Issue.record("two values wait: the take must return them as a batch")
      return
    }
    #expect(buffer == [2, 3])
    #expect(state.count == 0)
    #expect(state.receive(4) == nil)
    #expect(state.count == 1)
    buffer = []
    guard case .batch = state.take(into: &buffer) else {
      Issue.record("one value waits")
      return
    }
    #expect(buffer == [4])
  }
}
