import ClosureKitTesting
import Testing

@testable import ClosureKit

/// `values` of any `HandlerSource`: the async form of a selector's source.
@Suite struct HandlerSourceValuesTests {
  @Test func aSourcesValuesAreItsPayloadsAndEndWithTheLoop() async {
    let controls = ControlActions<SourceKind, Int>()
    let values = controls.actions(for: .up).values
    controls.sendActions(for: .up, with: 1)
    controls.sendActions(for: .down, with: 2)
    controls.sendActions(for: .up, with: 3)
    var seen: [Int] = []
    for await value in values {
      seen.append(value)
      if seen.count == 2 { break }
    }
    #expect(seen == [1, 3])
    #expect(controls.actionCount(for: .up) == 1)
    _ = consume values
    #expect(controls.actionCount(for: .up) == 0)
  }
}
