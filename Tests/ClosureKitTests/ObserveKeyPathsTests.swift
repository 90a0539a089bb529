import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Observation
import Testing

/// A value with several fields, for `Observed`'s several-key-path form.
struct Layout: Sendable, Equatable {
  var width = 0
  var title = ""
  var isHidden = false
}

/// Writes a field's change as text: "width 0->320", "title nil->B". (A key path is not `Sendable`,
/// so the handlers compare it with literals, as a user's handler does.)
func describe<Root>(_ keyPath: PartialKeyPath<Root>, _ change: Change<any Sendable>) -> String {
  func text(_ value: (any Sendable)?) -> String { value.map { "\($0)" } ?? "nil" }
  let name: String
  switch keyPath {
  case \Layout.width: name = "width"
  case \Layout.title: name = "title"
  case \Layout.isHidden: name = "hidden"
  case \Order.count: name = "count"
  case \Order.customer.name: name = "name"
  default: name = "?"
  }
  return "\(name) \(text(change.oldValue))->\(text(change.newValue))"
}

/// The several-key-path forms of `Observed` and of `@Observable` observation (issue 30, item 3).
@Suite struct ObservedKeyPathsTests {

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func eachWriteReportsTheFieldsThatChangedInKeyPathOrder() {
    let layout = Observed(Layout())
    let seen = Recorder<String>()
    layout.observe(\.title, \.width, options: [.old, .new]) { keyPath, change in
      seen.append(describe(keyPath, change))
    }
    layout.modify { $0.width = 320 }
    layout.value = Layout(width: 100, title: "B")
    layout.value = Layout(width: 100, title: "B")  // equal fields: nothing
    layout.modify { $0.isHidden = true }  // a field not observed: nothing
    #expect(seen.values == ["width 0->320", "title ->B", "width 320->100"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func theChangedKeyPathIsPassedAsAPartialKeyPathAndItsValuesKeepTheirTypes() {
    let layout = Observed(Layout())
    let widths = Recorder<Int>()
    layout.observe(\.width, \.title) { keyPath, change in
      if keyPath == \Layout.width, let width = change.newValue as? Int { widths.append(width) }
    }
    layout.modify { $0.width = 7 }
    layout.modify { $0.title = "ignored by the handler" }
    #expect(widths.values == [7])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func optionsChooseTheOldAndNewValuesAndInitialReportsEachKeyPath() {
    let layout = Observed(Layout(width: 5, title: "A"))
    let seen = Recorder<String>()
    layout.observe(\.width, \.title, options: [.initial, .new]) { keyPath, change in
      seen.append(describe(keyPath, change))
    }
    #expect(seen.values == ["width nil->5", "title nil->A"])
    layout.modify { $0.title = "B" }
    #expect(seen.values == ["width nil->5", "title nil->A", "title nil->B"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func oneTokenEndsEveryKeyPathAndReleasesTheCaptures() {
    let layout = Observed(Layout())
    let calls = Counter()
    let witness = CaptureWitness()
    let subscription = layout.observe(\.width, \.title, on: .immediate, witness.capturing { _, _ in calls.increment() })
    layout.modify { $0.width = 1 }
    subscription.cancel()
    #expect(subscription.isCancelled)
    #expect(witness.isReleased)
    layout.modify { $0.width = 2 }
    layout.modify { $0.title = "x" }
    #expect(calls.value == 1)
    #expect(layout.observerCount == 0)
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func ownerFormPassesTheOwnerAndEndsWithIt() {
    let layout = Observed(Layout())
    var owner: Tracked? = Tracked("header")
    let seen = Recorder<String>()
    layout.observe(\.width, \.title, owner: owner!) { owner, keyPath, _ in
      seen.append("\(owner.name) \(keyPath == \Layout.width ? "width" : "title")")
    }
    layout.modify { $0.title = "T" }
    owner = nil
    layout.modify { $0.width = 3 }
    #expect(seen.values == ["header title"])
    #expect(layout.observerCount == 0)
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func queueDeliveryRunsTheCallsOfOneWriteThereInOrder() async {
    let queue = DispatchQueue(label: "layout")
    let layout = Observed(Layout())
    let seen = Recorder<String>()
    let done = Expectation()
    layout.observe(\.width, \.title, on: .queue(queue)) { keyPath, change in
      dispatchPrecondition(condition: .onQueue(queue))
      seen.append(describe(keyPath, change))
      if keyPath == \Layout.title { done.fulfill() }
    }
    layout.value = Layout(width: 9, title: "Q")
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(seen.values == ["width nil->9", "title nil->Q"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test(.exitTest) func priorInOptionsStopsWithAMessageNamingOptions() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      Observed(Layout()).observe(\.width, \.title, options: [.prior, .new]) { _, _ in }
    }
    #expect(errorText(of: result).contains("`options`"))
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test(.exitTest) func noKeyPathStopsWithAMessageNamingKeyPaths() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      Observed(Layout()).observe { (_: PartialKeyPath<Layout>, _: Change<any Sendable>) in }
    }
    #expect(errorText(of: result).contains("`keyPaths`"))
  }
}

/// (No exit test for an empty key-path list here: with Swift 6.3.1, compiling a call with an empty
/// pack of key-path existentials on an `@Observable` model crashes LLVM under `-O`.)
@Suite struct ObservableKeyPathsTests {
  let queue = DispatchQueue(label: "model")

  /// Runs `body` on the model's queue and waits until the hops it caused have run there too.
  func onModelQueue(_ body: () -> Void) {
    queue.sync(execute: body)
    queue.sync {}
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func severalKeyPathsReportToOneHandlerWhichOneChanged() {
    let order = Order()
    let seen = Recorder<String>()
    order.observe(\.count, \.customer.name, options: [.old, .new], on: .queue(queue)) { keyPath, change in
      seen.append(describe(keyPath, change))
    }
    onModelQueue { order.count = 1 }
    onModelQueue { order.customer.name = "B" }
    onModelQueue { order.count = 2 }
    #expect(seen.values == ["count 0->1", "name A->B", "count 1->2"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func initialReportsEachKeyPathInOrderBeforeReturning() {
    let order = Order()
    order.count = 4
    let seen = Recorder<String>()
    order.observe(\.customer.name, \.count, options: [.initial, .new]) { keyPath, change in
      seen.append(describe(keyPath, change))
    }
    #expect(seen.values == ["name nil->A", "count nil->4"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func oneTokenEndsEveryKeyPathAndReleasesTheCaptures() {
    let order = Order()
    let calls = Counter()
    let witness = CaptureWitness()
    let subscription = order.observe(
      \.count, \.customer.name, on: .queue(queue), witness.capturing { _, _ in calls.increment() })
    onModelQueue { order.count = 1 }
    #expect(!subscription.isCancelled)
    subscription.cancel()
    #expect(subscription.isCancelled)
    #expect(witness.isReleased)
    onModelQueue { order.count = 2 }
    onModelQueue { order.customer.name = "B" }
    #expect(calls.value == 1)
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func droppingTheTokenDoesNotEndTheObservation() {
    let order = Order()
    let calls = Counter()
    do {
      order.observe(\.count, \.customer.name, on: .queue(queue)) { _, _ in calls.increment() }
    }
    onModelQueue { order.count = 1 }
    onModelQueue { order.customer.name = "B" }
    #expect(calls.value == 2)
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func theTokenIsCancelledOnceTheObjectIsDeallocated() {
    var order: Order? = Order()
    let subscription = order!.observe(\.count, \.customer.name) { _, _ in }
    #expect(!subscription.isCancelled)
    order = nil
    #expect(subscription.isCancelled)
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func ownerFormPassesTheOwnerAndEndsWithIt() {
    let order = Order()
    var owner: Tracked? = Tracked("screen")
    let seen = Recorder<String>()
    order.observe(\.count, \.customer.name, owner: owner!, on: .queue(queue)) { owner, keyPath, change in
      seen.append("\(owner.name): \(describe(keyPath, change))")
    }
    onModelQueue { order.customer.name = "B" }
    owner = nil
    onModelQueue { order.count = 5 }
    #expect(seen.values == ["screen: name nil->B"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @MainActor @Test func immediateDeliveryOfMainQueueWritesRunsOnTheMainQueue() async {
    let order = Order()
    let seen = Recorder<String>()
    let done = Expectation(count: 2)
    order.observe(\.count, \.customer.name) { keyPath, change in
      dispatchPrecondition(condition: .onQueue(.main))
      seen.append(describe(keyPath, change))
      done.fulfill()
    }
    order.count = 1
    order.customer.name = "M"
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(Set(seen.values) == ["count nil->1", "name nil->M"])
  }
}

/// What an exit test's child process wrote to standard error.
private func errorText(of result: ExitTest.Result?) -> String {
  String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

@MainActor @Suite struct MainActorObservableKeyPathsTests {
  /// "count 0->1", "label a->b".
  private static func text(_ keyPath: PartialKeyPath<MainActorCounter>, _ change: Change<any Sendable>) -> String {
    func value(_ value: (any Sendable)?) -> String { value.map { "\($0)" } ?? "nil" }
    let name = keyPath == \MainActorCounter.count ? "count" : keyPath == \MainActorCounter.label ? "label" : "?"
    return "\(name) \(value(change.oldValue))->\(value(change.newValue))"
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func severalKeyPathsOfAMainActorModelReportOnTheMainActor() async {
    let model = MainActorCounter()
    let seen = Recorder<String>()
    model.observe(\.count, \.label, options: [.initial, .old, .new]) { keyPath, change in
      MainActor.assertIsolated()
      seen.append(Self.text(keyPath, change))  // on the main actor: main-actor key paths may be formed
    }
    #expect(seen.values == ["count nil->0", "label nil->a"])
    model.count = 1
    await drainMainQueue()
    model.label = "b"
    await drainMainQueue()
    #expect(seen.values == ["count nil->0", "label nil->a", "count 0->1", "label a->b"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func oneTokenEndsEveryKeyPathOfAMainActorModel() async {
    let model = MainActorCounter()
    let calls = Counter()
    let subscription = model.observe(\.count, \.label) { _, _ in calls.increment() }
    model.count = 1
    await drainMainQueue()
    subscription.cancel()
    #expect(subscription.isCancelled)
    model.count = 2
    model.label = "z"
    await drainMainQueue()
    #expect(calls.value == 1)
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func theOwnerFormOfAMainActorModelEndsWithTheOwner() async {
    let model = MainActorCounter()
    var owner: ScreenOwner? = ScreenOwner()
    let calls = Counter()
    model.observe(\.count, \.label, owner: owner!) { _, _, _ in calls.increment() }
    model.label = "b"
    await drainMainQueue()
    owner = nil
    model.count = 3
    await drainMainQueue()
    #expect(calls.value == 1)
  }
}

extension MainActorObservableKeyPathsTests {
  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test func mainActorDeliveryEnqueuesTheCallsOnTheMainActor() async {
    let model = MainActorCounter()
    let seen = Recorder<String>()
    model.observe(\.count, \.label, on: .mainActor) { keyPath, change in
      seen.append(keyPath == \MainActorCounter.label ? "label \(change.newValue!)" : "count \(change.newValue!)")
    }
    model.label = "q"
    #expect(seen.values.isEmpty)  // enqueued, not run inside the write
    await drainMainQueue()
    await drainMainQueue()
    #expect(seen.values == ["label q"])
  }

  @available(*, deprecated, message: "tests the deprecated spelling")
  @Test(.exitTest) func aQueueDeliveryStopsWithAMessageNamingDelivery() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = MainActorCounter().observe(\.count, \.label, on: .queue(.global())) { _, _ in }
      }
    }
    #expect(errorText(of: result).contains("`delivery`"))
  }
}
