// The context of the documentation's code blocks, for Scripts/typecheck-uikit.sh: it extracts
// every ```swift block of Sources/ClosureKit/Documentation.docc/UIKit.md and of ClosureKitUIKit's
// doc comments into a method of an extension of `DocExampleContext` (as Rust's doctests wrap a
// block in `fn main`), so that a block may use `self` as a view controller, and the names below,
// which stand for what an app's screen has. They are globals, not members, so that a block's
// closures use them as they read, without `self.`. Nothing here is from ClosureKit: a block that
// uses an API of the layer or of UIKit that does not exist, or uses it wrongly, fails the check.
import ClosureKit
import ClosureKitUIKit
import Dispatch
import Foundation
import MessageUI
import UIKit
import WebKit

/// A model object with a key-value-observable property, as an app's player or document.
final class Player: NSObject {
  @objc dynamic var rate: Double = 0
}

/// An app's model value.
struct Item: Sendable {
  var name = ""
}

/// A table's index path, reduced to what the examples read.
struct IndexPath: Sendable {
  var row = 0
}

/// The controller the factory examples present.
final class DetailViewController: UIViewController, @MainActor Presentable {
  var item: Item?
  init() { super.init(nibName: nil, bundle: nil) }
  required init?(coder: NSCoder) { nil }
}

/// The screen whose methods the blocks are: `self`, and the owner of `owner: self`.
@MainActor
class DocExampleContext: UIViewController {
  let clockLabel = UILabel()
  var isShowingDialog = false
  init() { super.init(nibName: nil, bundle: nil) }
  required init?(coder: NSCoder) { nil }
  func submit() {}
  func submit(from button: UIButton) {}
  func drag(by translation: CGPoint) {}
  func deletePhoto() {}
  func hideToast() {}
  func showRate(_ rate: Double) {}
}

// The views and model of the screen.
@MainActor let slider = UISlider()
@MainActor let toggle = UISwitch()
@MainActor let label = UILabel()
@MainActor let button = UIButton(type: .system)
@MainActor let control: UIControl = UIButton(type: .custom)
@MainActor let field = UITextField()
@MainActor let card = UIView()
@MainActor let pan = UIPanGestureRecognizer()
@MainActor let cell = UIView()
@MainActor let page = UIView()
@MainActor let avatar = UIImageView(image: UIImage(systemName: "person.circle"))
@MainActor let imageView = UIImageView(image: nil)
@MainActor let scrollView = UIScrollView()
@MainActor let refreshControl = UIRefreshControl()
@MainActor let shareItem = UIBarButtonItem(barButtonSystemItem: .action, target: nil, action: nil)
@MainActor let picker = UIImagePickerController()
@MainActor let presenter = AlertControllerPresenter(presentingFrom: UIViewController(nibName: nil, bundle: nil))
@MainActor var isEditable = true
@MainActor var hasUnsavedChanges = false
@MainActor let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
@MainActor let sheet = UIViewController(nibName: nil, bundle: nil)
@MainActor var popover: UIPopoverPresentationController { sheet.popoverPresentationController! }
@MainActor let player = Player()
@MainActor let displayLink = NSObject()  // a CADisplayLink in an app: QuartzCore is not in the stub SDK
@MainActor let pair = TargetAction { _ in }
let uploads = DispatchQueue(label: "uploads")
let item = Item(name: "first")
let items = [Item(name: "first")]
let indexPath = IndexPath()
let request = DialogRequest(style: .alert, title: nil, message: nil, buttons: [])

// What the screen does: main-actor work, except what runs off the main actor in the examples.
@MainActor func save() {}
@MainActor func save(_ text: String?) {}
@MainActor func close() {}
@MainActor func refresh() async {}
@MainActor func showMenu() {}
@MainActor func showNextPage() {}
@MainActor func zoom(at point: CGPoint) {}
@MainActor func share() {}
@MainActor func share(from item: UIBarButtonItem) {}
@MainActor func preview(_ image: UIImage?) {}
// Not `rename(to:)` / `validate(_:)`: inside a view controller those names find UIResponder's
// `rename(_:)` and `validate(_:)` (UIResponderStandardEditActions) first, as Apple's SDK showed.
@MainActor func renameItem(to name: String) {}
@MainActor func validateInput(_ field: UITextField) {}
@MainActor func now() -> String { "12:00" }
func upload() {}  // on the uploads queue
func reload() {}  // from a target/action pair, on whatever thread its sender uses
