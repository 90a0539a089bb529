#if canImport(UIKit)
  public import ClosureKit
  public import UIKit

  /// Shows ClosureKit's `AlertDialog` and `ActionSheetDialog` with `UIAlertController`.
  ///
  /// ```swift
  /// let alert = AlertDialog(title: "Rename", message: nil)
  /// alert.addTextField(placeholder: "Name")
  /// alert.addButton("Cancel", role: .cancel)
  /// alert.addButton("Rename") { result in renameItem(to: result.textFieldValues[0]) }
  /// alert.enableButtons { values in !values[0].isEmpty }
  /// let result = try await alert.present(on: AlertControllerPresenter(presentingFrom: self))
  /// ```
  ///
  /// Each button becomes a `UIAlertAction` with the matching style; text fields are added with
  /// their placeholder and secure entry; the validation rule is re-evaluated on every edit and
  /// enables or disables the non-cancel actions; an action sheet's popover points at the anchor.
  ///
  /// > Important: Main-actor bound. The answer is given exactly once: the tapped action, or a
  /// > dismissal when the controller goes away without one (an iPad popover tapped outside, with no
  /// > cancel button), when the presenting task is cancelled (the controller is dismissed, then
  /// > the dismissal is answered), or when there is nothing to present from. UIKit's presentation
  /// > completion reports the dialog on screen (``ClosureKit/DialogRequest/reportPresented()``), so
  /// > the dialog's did-present closure runs then.
  @MainActor
  public final class AlertControllerPresenter: DialogPresenter {
    /// The controller to present from; held weakly. If it is already presenting, the topmost
    /// presented controller is used.
    public weak var presentingViewController: UIViewController?
    /// Where action sheets point; `nil` means the centre of the presenting view.
    public var anchor: PopoverAnchor?
    /// Whether presentation and dismissal are animated.
    public var animated: Bool

    /// Creates a presenter that presents from `viewController`.
    ///
    /// ```swift
    /// let presenter = AlertControllerPresenter(presentingFrom: self, anchor: .view(button, rect: nil))
    /// ```
    ///
    /// - Parameters:
    ///   - viewController: Held weakly.
    ///   - anchor: Where action sheets point on iPad.
    ///   - animated: Whether to animate. Defaults to `true`.
    public init(presentingFrom viewController: UIViewController, anchor: PopoverAnchor? = nil, animated: Bool = true) {
      self.presentingViewController = viewController
      self.anchor = anchor
      self.animated = animated
    }

    /// Shows `request` in a `UIAlertController` and returns the user's answer.
    ///
    /// ```swift
    /// let answer = await presenter.present(request)
    /// ```
    ///
    /// - Parameter request: What to show.
    /// - Returns: The tapped button with the text-field values, or a dismissal.
    ///
    /// > Important: Text fields are shown for alerts only: UIKit refuses them on action sheets.
    /// > Cancelling the calling task dismisses the controller (once it is on screen) and answers
    /// > with a dismissal; a tap that came first wins, and the answer is given once either way.
    public func present(_ request: DialogRequest) async -> DialogAnswer {
      guard let presenting = Self.topmost(from: presentingViewController) else {
        return .dismissed(textFieldValues: request.textFields.map { _ in "" })
      }
      let box = AnswerBox()
      return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let answer = DialogAnswerOnce(request: request, continuation: continuation)
          box.answer = answer
          let controller = makeController(for: request, answer: answer)
          answer.controller = controller
          if request.style == .actionSheet, let popover = controller.popoverPresentationController {
            Self.point(popover, at: anchor, in: presenting)
          }
          presenting.present(controller, animated: animated) { answer.didPresent() }
          if Task.isCancelled { answer.cancel() }
        }
      } onCancel: {
        Task { @MainActor in box.answer?.cancel() }
      }
    }

    /// Builds the controller: actions, text fields, validation, and the dismissal sentinel.
    private func makeController(for request: DialogRequest, answer: DialogAnswerOnce) -> UIAlertController {
      let controller = UIAlertController(
        title: request.title,
        message: request.message,
        preferredStyle: request.style == .alert ? .alert : .actionSheet
      )
      if request.style == .alert {
        for description in request.textFields {
          controller.addTextField { field in
            field.placeholder = description.placeholder
            field.isSecureTextEntry = description.isSecure
          }
        }
      }
      for (index, button) in request.buttons.enumerated() {
        let action = UIAlertAction(title: button.title, style: Self.style(of: button.role)) { _ in
          answer.give(.button(index, textFieldValues: answer.values))
        }
        controller.addAction(action)
      }
      answer.values = request.textFields.map { _ in "" }
      let update = { @MainActor @Sendable [weak controller] in
        guard let controller else { return }
        let values = (controller.textFields ?? []).map { $0.text ?? "" }
        answer.values = values
        for (index, action) in controller.actions.enumerated() {
          action.isEnabled = answer.isButtonEnabled(at: index, textFieldValues: values)
        }
      }
      for field in controller.textFields ?? [] {
        field.addAction(for: .editingChanged) { _, _ in update() }
      }
      update()
      DismissalSentinel(answer).attach(to: controller)
      return controller
    }

    /// The controller to present from: `root` or the topmost controller it presents.
    private static func topmost(from root: UIViewController?) -> UIViewController? {
      var current = root
      while let presented = current?.presentedViewController { current = presented }
      return current
    }

    /// Points an action sheet's popover at `anchor`, or at the centre of `presenting`'s view.
    private static func point(
      _ popover: UIPopoverPresentationController,
      at anchor: PopoverAnchor?,
      in presenting: UIViewController
    ) {
      switch anchor {
      case .barButtonItem(let item):
        popover.sourceItem = item
      case .view(let view, let rect):
        popover.sourceView = view
        popover.sourceRect = rect ?? view.bounds
      case nil:
        let view: UIView = presenting.view
        let bounds = view.bounds
        popover.sourceView = view
        popover.sourceRect = CGRect(
          origin: CGPoint(x: bounds.origin.x + bounds.size.width / 2, y: bounds.origin.y + bounds.size.height / 2),
          size: CGSize(width: 0, height: 0)
        )
      }
    }

    /// The presentation's answer, for the cancellation handler (which runs on any thread and
    /// hops to the main actor to read it).
    @MainActor
    private final class AnswerBox: Sendable {
      var answer: DialogAnswerOnce?
    }

    /// The `UIAlertAction` style of a button role.
    private static func style(of role: DialogButton.Role) -> UIAlertAction.Style {
      switch role {
      case .default: .default
      case .cancel: .cancel
      case .destructive: .destructive
      }
    }
  }
#endif
