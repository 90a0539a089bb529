// Client code for Scripts/typecheck-uikit.sh: closure delegates and the async picker.
#if canImport(UIKit)
  import ClosureKitUIKit
  import Foundation
  import UIKit

  @MainActor
  final class DelegateUsage: UIViewController, UITextFieldDelegate {
    let field = UITextField()
    var image: UIImage?

    func bind() {
      field.delegate = self  // keeps being called for what has no closure
      field.closureDelegate.shouldReturn = { _ in false }
      field.closureDelegate.shouldChangeCharacters = { _, range, replacement in
        range.length < 10 && replacement.count < 10
      }
      field.closureDelegate.didEndEditing = { field in _ = field.text }
      _ = field.closureDelegate.previousDelegate

      let picker = UIImagePickerController()
      picker.closureDelegate.willShow = { _, controller, animated in _ = (controller, animated) }
      picker.closureDelegate.didCancel = { picker in picker.dismiss(animated: true, completion: nil) }
    }

    func pick() async {
      let picker = UIImagePickerController()
      picker.sourceType = .photoLibrary
      do {
        let info = try await picker.pickMedia(from: self)
        image = info[.originalImage] as? UIImage
      } catch {
        image = nil
      }
    }
  }
#endif
