import ClosureKit
import ClosureKitTestSupport
import Dispatch
import Testing

/// A presented screen.
final class EditScreen: Presentable {
  var title = ""
  init() {}
}

/// The presenter: dismisses screens and records which.
final class Presenter: Sendable {
  let dismissed = Recorder<String>()
  func close(_ title: String) { dismissed.append(title) }
}

/// A presented object that several threads share.
final class SharedScreen: DismissRequesting, Sendable {}

@Suite struct DismissRequestTests {
  @Test func registeringRequestingAndCancellingFromManyThreadsIsSafe() {
    let screen = SharedScreen()
    let count = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 {
        let token = screen.onDismissRequest { _ in count.increment() }
        screen.requestDismiss()
        token.cancel()
      }
    }
    #expect(count.value <= 8 * 500)
    #expect(!screen.requestDismiss())
  }

  @Test func requestDismissWithoutAClosureReturnsFalse() {
    #expect(!EditScreen().requestDismiss())
  }

  @Test func withoutOwnerTheClosureReceivesThePresentedObjectEachTime() {
    let screen = EditScreen().configured { $0.title = "edit" }
    let recorder = Recorder<String>()
    screen.onDismissRequest { screen in recorder.append(screen.title) }
    #expect(screen.requestDismiss())
    #expect(screen.requestDismiss())
    #expect(recorder.values == ["edit", "edit"])
  }

  @Test func withOwnerTheClosureReceivesTheOwner() {
    let presenter = Presenter()
    let screen = EditScreen().configured { $0.title = "edit" }
    screen.onDismissRequest(owner: presenter) { presenter, screen in presenter.close(screen.title) }
    #expect(screen.requestDismiss())
    #expect(presenter.dismissed.values == ["edit"])
  }

  @Test func theOwnerIsHeldWeaklyAndItsDeathReleasesTheClosureAtTheNextRequest() {
    let screen = EditScreen()
    weak var weakPresenter: Presenter?
    let witness = CaptureWitness()
    do {
      let presenter = Presenter()
      weakPresenter = presenter
      screen.onDismissRequest(owner: presenter, witness.capturing { presenter, _ in presenter.close("tracked") })
    }
    #expect(weakPresenter == nil)
    #expect(!witness.isReleased)
    #expect(!screen.requestDismiss())
    #expect(witness.isReleased)
  }

  /// Registers a closure through `register` on a screen that is then dropped; expects the screen
  /// gone and the closure released.
  func expectReleasedWithTheScreen(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ register: (EditScreen, @escaping @Sendable (EditScreen) -> Void) -> Void
  ) async {
    let witness = CaptureWitness()
    weak var weakScreen: EditScreen?
    do {
      let screen = EditScreen()
      weakScreen = screen
      register(screen, witness.capturing { _ in })
    }
    // On Linux another test's sweep of the shared association table may hold the screen for a
    // moment (seen under ThreadSanitizer): its deinit then runs on that thread, just after.
    #expect(await eventually { weakScreen == nil }, sourceLocation: sourceLocation)
    sweepAssociations()
    #expect(witness.isReleased, sourceLocation: sourceLocation)
  }

  @Test func theClosureIsReleasedWithThePresentedObject() async {
    await expectReleasedWithTheScreen { screen, handler in screen.onDismissRequest(handler) }
  }

  @Test func aNewClosureReplacesAndReleasesTheOldOne() {
    let screen = EditScreen()
    let recorder = Recorder<String>()
    let witness = CaptureWitness()
    screen.onDismissRequest(witness.capturing { _ in recorder.append("tracked") })
    screen.onDismissRequest { _ in recorder.append("new") }
    #expect(witness.isReleased)
    screen.requestDismiss()
    #expect(recorder.values == ["new"])
  }

  // A held token (here in a bag) must not keep its closure alive: each way a closure ends below
  // left it and its captures alive while the token was held, before the fix.

  @Test func aReplacedClosureIsReleasedWhileItsTokenIsHeld() {
    let screen = EditScreen()
    let bag = SubscriptionBag()
    let witness = CaptureWitness()
    screen.onDismissRequest(witness.capturing { _ in }).store(in: bag)
    screen.onDismissRequest { _ in }.store(in: bag)
    #expect(witness.isReleased)
    #expect(bag.count == 2)
  }

  @Test func aClosureIsReleasedWithThePresentedObjectWhileItsTokenIsHeld() async {
    let bag = SubscriptionBag()
    await expectReleasedWithTheScreen { screen, handler in
      screen.onDismissRequest(handler).store(in: bag)
    }
    bag.cancelAll()  // the presented object is gone: cancelling does nothing, and does not crash
  }

  @Test func anOwnerBoundClosureIsReleasedAtTheFirstRequestAfterItsOwnerDiedWhileItsTokenIsHeld() {
    let screen = EditScreen()
    let bag = SubscriptionBag()
    let witness = CaptureWitness()
    screen.onDismissRequest(owner: Presenter(), witness.capturing { presenter, _ in presenter.close("tracked") })
      .store(in: bag)
    #expect(!screen.requestDismiss())
    #expect(witness.isReleased)
  }

  @Test func aHeldTokenOfAReplacedClosureDoesNotRemoveItsSuccessor() {
    let screen = EditScreen()
    let recorder = Recorder<String>()
    let first = screen.onDismissRequest { _ in recorder.append("first") }
    screen.onDismissRequest { _ in recorder.append("second") }
    first.cancel()
    #expect(screen.requestDismiss())
    #expect(recorder.values == ["second"])
  }

  @Test func cancellingTheTokenRemovesTheClosureButNotALaterOne() {
    let screen = EditScreen()
    let recorder = Recorder<String>()
    let first = screen.onDismissRequest { _ in recorder.append("first") }
    first.cancel()
    #expect(!screen.requestDismiss())
    let second = screen.onDismissRequest { _ in recorder.append("second") }
    let third = screen.onDismissRequest { _ in recorder.append("third") }
    second.cancel()  // already replaced: must not remove the third
    #expect(screen.requestDismiss())
    third.cancel()
    #expect(!screen.requestDismiss())
    #expect(recorder.values == ["third"])
  }

  @Test func theClosureMayRegisterAndRequestAgainWithoutDeadlock() {
    let screen = EditScreen()
    let recorder = Recorder<String>()
    screen.onDismissRequest { screen in
      recorder.append("first")
      screen.onDismissRequest { _ in recorder.append("second") }
      screen.requestDismiss()
    }
    screen.requestDismiss()
    #expect(recorder.values == ["first", "second"])
  }

  @Test func makeCreatesConfiguresAndRegisters() {
    let recorder = Recorder<String>()
    let screen = make(EditScreen.self) { screen in
      screen.title = "rename"
    } onDismissRequest: { screen in
      recorder.append(screen.title)
    }
    #expect(screen.title == "rename")
    #expect(screen.requestDismiss())
    #expect(recorder.values == ["rename"])
  }

  @Test func makeWithOwnerBindsTheClosureToTheOwner() {
    let presenter = Presenter()
    let screen = make(EditScreen.self, owner: presenter) { screen in
      screen.title = "share"
    } onDismissRequest: { presenter, screen in
      presenter.close(screen.title)
    }
    #expect(screen.requestDismiss())
    #expect(presenter.dismissed.values == ["share"])
  }

  @Test func makeDoesNotRegisterWhenConfigureThrows() {
    weak var captured: Tracked?
    #expect(throws: ConfigurationFailed.self) {
      let tracked = Tracked()
      captured = tracked
      _ = try make(EditScreen.self) { _ in
        throw ConfigurationFailed()
      } onDismissRequest: { _ in
        _ = tracked
      }
    }
    #expect(captured == nil)
  }
}
