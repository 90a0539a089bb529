// The earlier spellings of the control API still compile, with the types they had: `events(for:)`
// is the source `actions(for:)` returns, and `for await` over `actions(for:)` still gets the
// `AsyncStream<UIEvent?>` (now deprecated, chosen only where a stream is all that fits). In a
// deprecated context, so that the deprecation warnings do not fail the `-warnings-as-errors` check.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import UIKit

  @MainActor
  final class DeprecatedControlUsage {
    let button = UIButton()
    var log: [String] = []

    @available(*, deprecated, message: "checks the deprecated spellings")
    func bind() {
      let source: ControlEventSource<UIButton> = button.events(for: .touchUpInside)
      source.onMainActor.addHandler { sent in _ = sent.control }
      // With no other context, `actions(for:)` is the source, not the deprecated stream.
      let taps = button.actions(for: .touchUpInside)
      let same: ControlEventSource<UIButton> = taps
      _ = same
    }

    @available(*, deprecated, message: "checks the deprecated spellings")
    func stream() async {
      for await event in button.actions(for: .touchUpInside) {
        let old: UIEvent? = event
        _ = old
        break
      }
      let stream: AsyncStream<UIEvent?> = button.actions(for: .valueChanged)
      _ = stream
    }
  }
#endif
