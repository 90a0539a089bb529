#if canImport(SwiftUI)
  public import ClosureKit
  public import SwiftUI

  extension View {
    /// Runs `action` on the main actor for every payload of `source` while this view is on screen.
    ///
    /// ```swift
    /// struct SavedLabel: View {
    ///   let saved: Event<String>
    ///   @State private var last = "nothing yet"
    ///   var body: some View {
    ///     Text(last).onEvent(saved) { file in last = file }
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - source: Any ClosureKit source: an `Event`, `controls.actions(for:)`,
    ///     `box.observing([.new])`, `center.observing(.name)`.
    ///   - action: Receives each payload, on the main actor; the view's latest closure is called.
    /// - Returns: The view, registered on `source` from its appearance to its disappearance.
    ///
    /// > Important: Registered in `onAppear`, cancelled in `onDisappear`: a payload sent while
    /// > the view is off screen is not delivered, and none is delivered after it disappeared.
    @MainActor
    public func onEvent<Source: HandlerSource>(
      _ source: Source,
      perform action: @escaping @MainActor (Source.Payload) -> Void
    ) -> some View where Source.Payload: Sendable {
      modifier(OnEventModifier(source: source, action: action))
    }

    /// Shows the dialogs presented on `presenter`: an alert dialog as SwiftUI's alert, an action
    /// sheet as its confirmation dialog, one at a time.
    ///
    /// ```swift
    /// struct Screen: View {
    ///   let presenter: SwiftUIDialogPresenter
    ///   var body: some View {
    ///     Button("Delete") {
    ///       Task {
    ///         let alert = AlertDialog(title: "Delete?", cancelButtonTitle: "Keep", otherButtonTitles: "Delete") { _ in }
    ///         _ = try await alert.present(on: presenter)
    ///       }
    ///     }
    ///     .dialogs(presenter)
    ///   }
    /// }
    /// ```
    ///
    /// > Important: The buttons answer on the main actor; the dialog's own closures then run as
    /// > `Dialog` states. Dismissing the alert without a button (the system can) answers
    /// > `.dismissed`.
    @MainActor
    public func dialogs(_ presenter: SwiftUIDialogPresenter) -> some View {
      modifier(DialogsModifier(presenter: presenter))
    }
  }

  /// The registration of `onEvent(_:perform:)`: made when the view appears, cancelled when it
  /// disappears.
  @MainActor
  struct OnEventModifier<Source: HandlerSource>: ViewModifier where Source.Payload: Sendable {
    let source: Source
    let action: @MainActor (Source.Payload) -> Void
    @State private var registration = OnEventRegistration<Source.Payload>()

    func body(content: Content) -> some View {
      registration.action = action
      return
        content
        .onAppear { registration.start(on: source) }
        .onDisappear { registration.stop() }
    }
  }

  /// The token of an `onEvent` registration and the view's latest closure.
  @MainActor
  final class OnEventRegistration<Payload: Sendable> {
    var action: (@MainActor (Payload) -> Void)?
    private var token: HandlerSubscription?

    func start<Source: HandlerSource>(on source: Source) where Source.Payload == Payload {
      token?.cancel()
      token = source.onMainActor.addHandler { [weak self] payload in self?.action?(payload) }
    }

    func stop() {
      token?.cancel()
      token = nil
    }
  }

  extension Observed {
    /// A SwiftUI binding that reads and writes through this box, so its observers see the
    /// view's writes.
    ///
    /// ```swift
    /// struct NameField: View {
    ///   let name: Observed<String>
    ///   var body: some View { TextField("Name", text: name.binding) }
    /// }
    /// ```
    ///
    /// > Important: A write through the binding is a write of ``ClosureKit/Observed/value``: its
    /// > observers run as their delivery says (`.immediate` ones on the main actor, during the
    /// > write). The view is redrawn by its own state, not by the box: to redraw on writes made
    /// > elsewhere, pair it with `onEvent(box.observing([.new]))`.
    public var binding: Binding<Value> {
      Binding(get: { self.value }, set: { self.value = $0 })
    }
  }
#endif
