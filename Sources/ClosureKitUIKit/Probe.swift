#if canImport(UIKit)
import UIKit
import ClosureKit
final class T: NSObject { @MainActor @objc func fire(_ s: UIControl, forEvent e: UIEvent?) {} }
@MainActor func probe(c: UIControl, p: UIImagePickerController, a: UIAlertController, f: UITextField) {
  let t = T()
  c.addTarget(t, action: #selector(T.fire(_:forEvent:)), for: [.touchUpInside, .valueChanged])
  let info: [UIImagePickerController.InfoKey: Any] = [:]
  _ = info[.originalImage] as? UIImage
  let fields: [UITextField]? = a.textFields
  _ = fields
  let r: NSRange = NSRange(location: 0, length: 1)
  _ = r
  let s: UIGestureRecognizer.State = .ended
  _ = s
  _ = Subscription { }
  objc_setAssociatedObject(c, UnsafeRawPointer(bitPattern: 8)!, t, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
  let x: String? = f.text
  _ = x
  let sel = #selector((any UITextFieldDelegate).textFieldShouldReturn(_:))
  _ = sel
  let b = UIBarButtonItem(barButtonSystemItem: .add, target: t, action: #selector(T.fire(_:forEvent:)))
  _ = b
}
#endif
