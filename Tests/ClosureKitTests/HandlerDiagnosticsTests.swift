import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Testing

/// An owner that registers itself on an event from its own deinit: by then a weak reference to it
/// reads `nil`, so the handler can never run.
final class OwnerRegisteringInDeinit: Sendable {
  let event: Event<Int>
  init(event: Event<Int>) { self.event = event }
  /// The line of the registration in `deinit`, the next one.
  static let registrationLine = #line + 1
  deinit { event.addHandler(owner: self) { _, _ in } }
}

/// Kinds of a control for the diagnostics tests.
struct DiagnosedKinds: OptionSet, Sendable {
  let rawValue: Int
  static let tap = DiagnosedKinds(rawValue: 1)
}

// Serialized: the switch is process-wide, and one test turning it off must not cut another short.
@Suite(.serialized) struct HandlerDiagnosticsTests {
  @Test func liveHandlerSitesNameTheRegistrationThatLeaked() {
    HandlerDiagnostics.enable()
    defer { HandlerDiagnostics.disable() }
    let saved = Event<String>()
    let bag = SubscriptionBag()
    saved.addHandler { _ in }.store(in: bag)
    saved.addHandler { _ in }
    let leakedLine = #line - 1
    bag.cancelAll()
    #expect(saved.liveHandlerSites == [HandlerSite(fileID: #fileID, line: leakedLine)])
    #expect(saved.liveHandlerSites.first??.description == "ClosureKitTests/HandlerDiagnosticsTests.swift:\(leakedLine)")
  }

  @Test func everyRegistrationFormRecordsItsSite() {
    HandlerDiagnostics.enable()
    defer { HandlerDiagnostics.disable() }
    let event = Event<Int>()
    let owner = Tracked()
    event.addHandler(owner: owner) { _, _ in }
    let ownerLine = #line - 1
    event.once { _ in }
    let onceLine = #line - 1
    event.once(owner: owner) { _, _ in }
    let onceOwnerLine = #line - 1
    event.onMainActor.addHandler { _ in }
    let mainActorLine = #line - 1
    #expect(
      event.liveHandlerSites.map { $0?.line } == [ownerLine, onceLine, onceOwnerLine, mainActorLine]
    )
    let actions = ControlActions<DiagnosedKinds, Void>()
    actions.addAction(for: .tap) {}
    let actionLine = #line - 1
    actions.actions(for: .tap).addHandler(owner: owner) { _, _ in }
    let ownerActionLine = #line - 1
    #expect(actions.liveActionSites.map { $0?.line } == [actionLine, ownerActionLine])
    actions.removeActions(for: .tap)
    #expect(actions.liveActionSites.isEmpty)
  }

  @Test func handlersRegisteredWhileDiagnosticsAreOffHaveNoSite() {
    HandlerDiagnostics.disable()
    let event = Event<Int>()
    event.addHandler { _ in }
    HandlerDiagnostics.enable()
    defer { HandlerDiagnostics.disable() }
    event.addHandler { _ in }
    #expect(event.liveHandlerSites == [nil, HandlerSite(fileID: #fileID, line: #line - 1)])
  }

  @Test func registeringWithAnOwnerBeingDeinitialisedIsReported() {
    let reported = Recorder<HandlerSite>()
    HandlerDiagnostics.enable { site in reported.append(site) }
    defer { HandlerDiagnostics.disable() }
    let event = Event<Int>()
    _ = OwnerRegisteringInDeinit(event: event)
    let ours = reported.values.filter { $0.fileID == #fileID }
    #expect(ours.count == 1)
    // the `addHandler(owner:)` in `OwnerRegisteringInDeinit.deinit`
    #expect(ours.first?.line == OwnerRegisteringInDeinit.registrationLine)
    #expect(event.handlerCount == 0)
  }

  @Test func aLiveOwnerIsNotReported() {
    let reported = Recorder<HandlerSite>()
    HandlerDiagnostics.enable { site in reported.append(site) }
    defer { HandlerDiagnostics.disable() }
    let event = Event<Int>()
    let owner = Tracked()
    event.addHandler(owner: owner) { _, _ in }
    #expect(reported.values.filter { $0.fileID == #fileID }.isEmpty)
    #expect(event.handlerCount == 1)
  }

  @Test func whileOffNothingIsRecordedOrReported() {
    HandlerDiagnostics.disable()
    #expect(!HandlerDiagnostics.isEnabled)
    let event = Event<Int>()
    _ = OwnerRegisteringInDeinit(event: event)
    event.addHandler { _ in }
    #expect(event.liveHandlerSites == [nil])
  }
}
