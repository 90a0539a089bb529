import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Observation
import Testing

/// "width 0->320": a field change as text (see `describe(_:_:)`).
private func text<Root>(_ field: FieldChange<Root>) -> String {
  describe(field.keyPath, field.change)
}

/// The several-key-path selectors, `observing(\.a, \.b, options:)`, as `HandlerSource`s (issue 27).
@Suite struct ObservingKeyPathsSourceTests {
  @Test func aBoxReportsTheChangedFieldsInKeyPathOrder() {
    let layout = Observed(Layout())
    let seen = Recorder<String>()
    layout.observing(\.title, \.width, options: [.old, .new]).addHandler { field in seen.append(text(field)) }
    layout.modify { $0.width = 320 }
    layout.modify {
      $0.title = "B"; $0.width = 10
    }
    layout.modify { $0.isHidden = true }
    #expect(seen.values == ["width 0->320", "title ->B", "width 320->10"])
  }

  @Test func theOwnerVariantEndsWithTheOwnerAndOnceRunsForTheFirstField() {
    let layout = Observed(Layout())
    let seen = Recorder<String>()
    var owner: Tracked? = Tracked("header")
    layout.observing(\.width, \.title).addHandler(owner: owner!) { owner, field in
      seen.append("\(owner.name) \(text(field))")
    }
    layout.observing(\.width, \.title).once { field in seen.append("once \(text(field))") }
    layout.modify {
      $0.width = 1; $0.title = "A"
    }
    owner = nil
    layout.modify { $0.width = 2 }
    #expect(seen.values == ["header width nil->1", "header title nil->A", "once width nil->1"])
  }

  @Test func anObservableModelsKeyPathsShareOneToken() {
    let queue = DispatchQueue(label: "model")
    let order = Order()
    let seen = Recorder<String>()
    let token = order.observing(\.count, \.customer.name, options: [.old, .new]).addHandler(on: .queue(queue)) {
      field in seen.append(text(field))
    }
    queue.sync { order.count = 1 }
    queue.sync {}
    queue.sync { order.customer.name = "M" }
    queue.sync {}
    token.cancel()
    queue.sync { order.count = 2 }
    queue.sync {}
    #expect(seen.values == ["count 0->1", "name A->M"])
  }

  @MainActor @Test func aMainActorModelsKeyPathsReportThroughTheMainActorView() async {
    let model = MainActorCounter()
    let seen = Recorder<String>()
    let token = model.observing(\.count, \.label, options: [.initial, .new]).onMainActor.addHandler { field in
      MainActor.assertIsolated()
      seen.append(field.keyPath == \MainActorCounter.count ? "count" : "label")
    }
    await drainMainQueue()
    #expect(seen.values == ["count", "label"])
    model.count = 1
    await drainMainQueue()
    token.cancel()
    model.label = "z"
    await drainMainQueue()
    #expect(seen.values == ["count", "label", "count"])
  }
}
