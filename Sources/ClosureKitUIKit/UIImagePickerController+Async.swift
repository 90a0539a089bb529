#if canImport(UIKit)
  public import UIKit

  extension UIImagePickerController {
    /// Presents the picker from `viewController`, waits for the user, dismisses it and returns the
    /// info dictionary of the picked media.
    ///
    /// ```swift
    /// let picker = UIImagePickerController()
    /// picker.sourceType = .photoLibrary
    /// let info = try await picker.pickMedia(from: self)
    /// imageView.image = info[.originalImage] as? UIImage
    /// ```
    ///
    /// - Parameters:
    ///   - viewController: The controller to present from.
    ///   - animated: Whether presentation and dismissal are animated. Defaults to `true`.
    /// - Returns: UIKit's info dictionary.
    /// - Throws: `CancellationError` when the user cancels or the calling task is cancelled (the
    ///   picker's dismissal then starts; like the dismissal after a pick, it is not waited for).
    ///
    /// > Important: Main actor. Uses the picker's ``closureDelegate``'s `didFinishPicking` and
    /// > `didCancel` for the duration of the call and restores them afterwards. Answers exactly once.
    public func pickMedia(
      from viewController: UIViewController,
      animated: Bool = true
    ) async throws -> [UIImagePickerController.InfoKey: Any] {
      let proxy = closureDelegate
      let savedFinish = proxy.didFinishPicking
      let savedCancel = proxy.didCancel
      let pick = PickOnce()
      defer {
        proxy.didFinishPicking = savedFinish
        proxy.didCancel = savedCancel
      }
      let picked = try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          pick.continuation = continuation
          proxy.didFinishPicking = { picker, info in
            picker.dismiss(animated: animated, completion: nil)
            pick.finish(.success(PickedMedia(info: info)))
          }
          proxy.didCancel = { picker in
            picker.dismiss(animated: animated, completion: nil)
            pick.finish(.failure(CancellationError()))
          }
          viewController.present(self, animated: animated, completion: nil)
        }
      } onCancel: {
        Task { @MainActor in
          guard pick.continuation != nil else { return }
          pick.finish(.failure(CancellationError()))
          // Not `await self.dismiss(animated:)`: UIKit marks
          // `dismissViewControllerAnimated:completion:` `NS_SWIFT_DISABLE_ASYNC`, so that would be
          // the synchronous call, awaiting nothing. The dismissal starts here and is not waited for.
          self.dismiss(animated: animated, completion: nil)
        }
      }
      return picked.info
    }
  }
#endif
