import ClosureKit
import ClosureKitTestSupport
import Testing

/// A reference type to configure.
final class Widget: Configurable {
  var title = ""
  var isEnabled = false
}

/// A value type to configure.
struct Insets: Configurable, Equatable {
  var top = 0.0
  var bottom = 0.0
}

struct ConfigurationFailed: Error {}

@Suite struct ConfigurableTests {
  @Test func configuredRunsTheClosureOnTheSameInstanceAndReturnsIt() {
    let widget = Widget()
    let configured = widget.configured {
      $0.title = "Hi"
      $0.isEnabled = true
    }
    #expect(configured === widget)
    #expect(widget.title == "Hi")
    #expect(widget.isEnabled)
  }

  @Test func configuredOnAValueReturnsAModifiedCopyAndLeavesTheOriginal() {
    let base = Insets()
    let padded = base.configured { $0.top = 8 }
    #expect(padded == Insets(top: 8, bottom: 0))
    #expect(base == Insets())
  }

  @Test func configuredRethrowsTheClosuresError() {
    #expect(throws: ConfigurationFailed.self) {
      _ = try Widget().configured { _ in throw ConfigurationFailed() }
    }
    #expect(throws: ConfigurationFailed.self) {
      _ = try Insets().configured { _ in throw ConfigurationFailed() }
    }
  }

  @Test func theClosureIsNotRetained() {
    weak var captured: Tracked?
    let widget: Widget
    do {
      let tracked = Tracked()
      captured = tracked
      widget = Widget().configured { $0.title = tracked.name }
    }
    #expect(captured == nil)
    #expect(widget.title == "tracked")
  }
}
