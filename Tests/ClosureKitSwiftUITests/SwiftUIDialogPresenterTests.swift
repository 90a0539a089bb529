import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Testing

@testable import ClosureKitSwiftUI

@Suite struct SwiftUIDialogPresenterTests {
  private func request(_ title: String, style: DialogRequest.Style = .alert) -> DialogRequest {
    DialogRequest(
      style: style, title: title, message: nil,
      buttons: [DialogButton(title: "Cancel", role: .cancel), DialogButton(title: "OK", role: .default)]
    )
  }

  /// Waits until the presenter shows a dialog titled `title`.
  private func shown(_ title: String, on presenter: SwiftUIDialogPresenter) async -> SwiftUIDialogPresenter
    .Presentation?
  {
    guard await eventually({ presenter.current?.request.title == title }) else { return nil }
    return presenter.current
  }

  @Test func theButtonThatAnsweredIsTheAnswer() async throws {
    let presenter = SwiftUIDialogPresenter()
    let answer = Task { await presenter.present(request("Save?")) }
    let presentation = try #require(await shown("Save?", on: presenter))
    #expect(presenter.answer(presentation, with: .button(1, textFieldValues: [])))
    #expect(await answer.value == .button(1, textFieldValues: []))
    #expect(presenter.current == nil)
  }

  @Test func eachDialogIsAnsweredOnce() async throws {
    let presenter = SwiftUIDialogPresenter()
    let answer = Task { await presenter.present(request("Once")) }
    let presentation = try #require(await shown("Once", on: presenter))
    #expect(presenter.answer(presentation, with: .button(0, textFieldValues: [])))
    // SwiftUI sets `isPresented` false after a button: that dismissal finds it answered.
    #expect(!presenter.answer(presentation, with: .dismissed(textFieldValues: [])))
    #expect(await answer.value == .button(0, textFieldValues: []))
  }

  @Test func dialogsAreShownOneAtATimeInOrder() async throws {
    let presenter = SwiftUIDialogPresenter()
    let first = Task { await presenter.present(request("First")) }
    let firstShown = try #require(await shown("First", on: presenter))
    let second = Task { await presenter.present(request("Second")) }
    #expect(await eventually { presenter.current?.request.title == "First" })
    presenter.answer(firstShown, with: .button(1, textFieldValues: []))
    let secondShown = try #require(await shown("Second", on: presenter))
    #expect(presenter.dismissCurrent())
    #expect(await first.value == .button(1, textFieldValues: []))
    #expect(await second.value == .dismissed(textFieldValues: []))
    #expect(!presenter.answer(secondShown, with: .button(0, textFieldValues: [])))
  }

  @Test func cancellingThePresentingTaskDismissesTheDialog() async throws {
    let presenter = SwiftUIDialogPresenter()
    let answer = Task { await presenter.present(request("Cancel me")) }
    _ = try #require(await shown("Cancel me", on: presenter))
    answer.cancel()
    #expect(await answer.value == .dismissed(textFieldValues: []))
    #expect(presenter.current == nil)
  }

  @Test func aTaskCancelledBeforeItPresentsIsDismissedAtOnce() async {
    let presenter = SwiftUIDialogPresenter()
    let answer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await presenter.present(request("Never shown"))
    }
    #expect(await answer.value == .dismissed(textFieldValues: []))
    #expect(presenter.current == nil)
  }

  @Test func currentChangedAnnouncesEachDialogOnScreen() async throws {
    let presenter = SwiftUIDialogPresenter()
    let titles = Recorder<String?>()
    presenter.currentChanged.addHandler { titles.append($0?.request.title) }
    let answer = Task { await presenter.present(request("Shown")) }
    let presentation = try #require(await shown("Shown", on: presenter))
    presenter.answer(presentation, with: .button(0, textFieldValues: []))
    _ = await answer.value
    #expect(titles.values == ["Shown", nil])
  }

  @Test func anAlertRunsItsButtonActionThroughThePresenter() async throws {
    let presenter = SwiftUIDialogPresenter()
    let chosen = Recorder<Int>()
    let alert = AlertDialog(title: "Delete?", cancelButtonTitle: "Keep", otherButtonTitles: "Delete") { index in
      chosen.append(index)
    }
    let result = Task { try await alert.present(on: presenter) }
    let presentation = try #require(await shown("Delete?", on: presenter))
    presenter.answer(presentation, with: .button(1, textFieldValues: []))
    #expect(try await result.value.index == 1)
    #expect(chosen.values == [1])
  }

  @Test func theQueueKeepsItsInvariants() {
    var state = DialogQueueState<Int>()
    let ids = (0..<5).map { _ in state.makeID() }
    _ = state.cancel(ids[2])
    for id in ids {
      let presentation = SwiftUIDialogPresenter.Presentation(id: id, request: request("\(id)"))
      let (dismissed, _) = state.enqueue(presentation, waiter: id)
      #expect((dismissed != nil) == (id == ids[2]))
      #expect(state.verifyInvariants())
    }
    #expect(state.current?.id == ids[0])
    #expect(state.answer(ids[3]).waiter == ids[3])
    #expect(state.answer(ids[3]).waiter == nil)
    #expect(state.answer(ids[0]).currentChanged)
    #expect(state.current?.id == ids[1])
  }
}
