#if canImport(SwiftUI)
  import ClosureKit
  import SwiftUI

  /// The view side of a ``SwiftUIDialogPresenter``: SwiftUI's alert and confirmation dialog,
  /// driven by the presenter's dialog on screen.
  @MainActor
  struct DialogsModifier: ViewModifier {
    let presenter: SwiftUIDialogPresenter
    @State private var shown: SwiftUIDialogPresenter.Presentation?
    @State private var texts: [String] = []

    func body(content: Content) -> some View {
      content
        .alert(
          Text(shown?.request.title ?? ""),
          isPresented: isPresented(.alert),
          presenting: shown,
          actions: { presentation in
            ForEach(Array(presentation.request.textFields.enumerated()), id: \.offset) { index, field in
              if field.isSecure {
                SecureField(field.placeholder, text: text(at: index))
              } else {
                TextField(field.placeholder, text: text(at: index))
              }
            }
            buttons(of: presentation)
          },
          message: { presentation in
            if let message = presentation.request.message { Text(message) }
          }
        )
        .confirmationDialog(
          Text(shown?.request.title ?? ""),
          isPresented: isPresented(.actionSheet),
          titleVisibility: shown?.request.title == nil ? .hidden : .visible,
          presenting: shown,
          actions: { presentation in buttons(of: presentation) },
          message: { presentation in
            if let message = presentation.request.message { Text(message) }
          }
        )
        .onEvent(presenter.currentChanged) { _ in show(presenter.current) }
        .onAppear { show(presenter.current) }
    }

    private func buttons(of presentation: SwiftUIDialogPresenter.Presentation) -> some View {
      ForEach(Array(presentation.request.buttons.enumerated()), id: \.offset) { index, button in
        Button(button.title, role: Self.role(button.role)) {
          presenter.answer(presentation, with: .button(index, textFieldValues: texts))
        }
        .disabled(!presentation.request.isButtonEnabled(at: index, textFieldValues: texts))
      }
    }

    private func show(_ presentation: SwiftUIDialogPresenter.Presentation?) {
      guard presentation != shown else { return }
      texts = presentation?.request.textFields.map { _ in "" } ?? []
      shown = presentation
      presentation?.request.reportPresented()
    }

    /// True while a dialog of `style` is shown; SwiftUI sets it false when the dialog goes away,
    /// which answers `.dismissed` unless a button answered first (each dialog answers once).
    private func isPresented(_ style: DialogRequest.Style) -> Binding<Bool> {
      Binding(
        get: { shown?.request.style == style },
        set: { isShown in
          guard !isShown, let presentation = shown, presentation.request.style == style else { return }
          presenter.answer(presentation, with: .dismissed(textFieldValues: texts))
        }
      )
    }

    private func text(at index: Int) -> Binding<String> {
      Binding(
        get: { texts.indices.contains(index) ? texts[index] : "" },
        set: { if texts.indices.contains(index) { texts[index] = $0 } }
      )
    }

    private static func role(_ role: DialogButton.Role) -> ButtonRole? {
      switch role {
      case .default: nil
      case .cancel: .cancel
      case .destructive: .destructive
      }
    }
  }
#endif
