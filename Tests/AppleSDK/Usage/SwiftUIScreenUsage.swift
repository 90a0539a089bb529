// An app screen written with ClosureKitSwiftUI, type-checked against Apple's SDK by
// Scripts/typecheck-apple-sdk.sh: `.onEvent`, `box.binding`, `event.publisher`, `addHandler(owner:on:_:)`
// on a Combine publisher, and a ClosureKit dialog shown by SwiftUI.
#if canImport(SwiftUI)
  import ClosureKit
  import ClosureKitSwiftUI
  import Combine
  import Foundation
  import SwiftUI

  /// The screen's model: a name in an observed box, an event per save, and a presenter for its
  /// dialogs.
  @MainActor
  final class ProfileModel: Sendable {
    let name = Observed("Ada")
    let saved = Event<String>()
    let dialogs = SwiftUIDialogPresenter()
    var lastSaved = ""

    func confirmDelete() async throws -> Bool {
      let alert = AlertDialog(title: "Delete profile?", message: "This cannot be undone.")
      alert.addButton("Keep", role: .cancel)
      alert.addButton("Delete", role: .destructive)
      let result = try await alert.present(on: dialogs)
      return result.title == "Delete"
    }
  }

  struct ProfileScreen: View {
    let model: ProfileModel
    @State private var status = "not saved"
    @State private var uppercased = ""

    var body: some View {
      VStack {
        TextField("Name", text: model.name.binding)
        Text(status)
        Text(uppercased)
        Button("Save") { model.saved.send(model.name.value) }
        Button("Delete") {
          Task { _ = try await model.confirmDelete() }
        }
      }
      .onEvent(model.saved) { name in status = "saved \(name)" }
      .onReceive(model.saved.publisher.map { $0.uppercased() }) { uppercased = $0 }
      .dialogs(model.dialogs)
    }
  }

  /// A Combine publisher into ClosureKit: the handler ends with its owner (here the model's
  /// event), and the token (not an `AnyCancellable`) removes it.
  @MainActor
  func bindClock(to model: ProfileModel) -> ClosureKit.HandlerSubscription {
    Timer.publish(every: 1, on: .main, in: .common).autoconnect()
      .map { _ in "tick" }
      .addHandler(owner: model.saved, on: .mainActor) { saved, tick in saved.send(tick) }
  }

  /// Demand: a subscriber that asks for one value gets one.
  func firstSave(of event: Event<String>) -> AnyPublisher<String, Never> {
    event.publisher(bufferingPolicy: .bufferingNewest(8)).first().eraseToAnyPublisher()
  }

  /// The changes of a box as a Combine pipeline.
  func names(of box: Observed<String>) -> AnyPublisher<String, Never> {
    box.observing([.new]).publisher.compactMap(\.newValue).eraseToAnyPublisher()
  }
#endif
