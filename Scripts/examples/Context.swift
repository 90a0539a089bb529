// The stand-ins ClosureKit's documentation examples use: Scripts/check-examples.sh compiles every
// snippet (a block without imports) as the body of an `async throws` method of `ExampleSelf`, in
// one module with this file. A name here is one a reader of the example understands without a
// declaration (`widget`, `store`, `document`); keep each as small as the examples need.
import ClosureKit
import ClosureKitFoundation
import ClosureKitTestServer
import ClosureKitTesting
import Dispatch
import Foundation
import Observation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The `self` of the examples: a screen or a controller that owns handlers.
final class ExampleSelf: Sendable {
  @MainActor var title = ""
  @MainActor var text = ""
  @MainActor var isLoading = false
}
extension ExampleSelf {
  func giveUp() {}
  func refresh() {}
  func refreshClock() {}
  func hideToast() {}
  func hideSpinner() {}
  func updateClock() {}
  func reload() {}
  func submit() {}
  func save() {}
  func close(_ presented: AnyObject) {}
  func forget(_ thumbnail: Thumbnail) {}
}

// MARK: Values and objects the examples name without declaring them

let url = URL(string: "https://example.com/feed.xml")!
let feedURL = url
let fileURL = URL(fileURLWithPath: "/tmp/closurekit-example/feed.xml")
let request = URLRequest(url: url)
let body = Data("payload".utf8)
let data = Data("<feed><entry>1</entry></feed>".utf8)
let session = ClosureURLSession()
let destination = URL(fileURLWithPath: "/tmp/closurekit-example/feed.xml")
let project = URL(fileURLWithPath: "/tmp/closurekit-example/project")
let backup = URL(fileURLWithPath: "/tmp/closurekit-example/backup")
let draft = URL(fileURLWithPath: "/tmp/closurekit-example/draft.txt")
let published = URL(fileURLWithPath: "/tmp/closurekit-example/published.txt")
let original = URL(fileURLWithPath: "/tmp/closurekit-example/original.txt")
let alias = URL(fileURLWithPath: "/tmp/closurekit-example/alias.txt")
let file = URL(fileURLWithPath: "/tmp/closurekit-example/notes.txt")
let center = NotificationCenter.default
let queue = DispatchQueue(label: "example")
let logQueue = DispatchQueue(label: "log")
let audioQueue = DispatchQueue(label: "audio")
let orderQueue = DispatchQueue(label: "orders")
let uploads = DispatchQueue(label: "uploads")

let event = Event<Int>()
let actions = ControlActions<ButtonEvent, String>()
let bag = SubscriptionBag()
let alert = AlertDialog(title: "Hello")
let login = AlertDialog(title: "Sign in")
let sheet = ActionSheetDialog(title: "Photo")
let presenter = ScriptedPresenter([.choose(0)])
let document = Document()
let store = Store()
let photo = Photo()
let printer = Printer()
let settings = Settings()
let controller = Controller()
let editor = Editor()
let mixer = Mixer()
let downloadView = DownloadView()
let label = Label()
let clockLabel = Label()
let toast = Label()
let bar = ProgressBar()
let screen = Screen()
let hasher = ChunkHasher()
let connection = Connection()
let parser = FeedParser()
let model = CounterModel()

func reload() {}
func refresh() {}
func delete() {}
func upload() {}
func done() -> Bool { true }
func now() -> String { "12:00" }
func log(_ value: some Any) {}
func render(_ value: some Any) {}
func signIn(_ name: String, _ password: String) {}
func useDefaultSavePolicy() {}
func makeTimer() -> ClosureTimer { ClosureTimer(.every(.seconds(1))) { _ in } }

extension Notification.Name {
  static let documentSaved = Notification.Name("DocumentSaved")
}

struct ButtonEvent: OptionSet, Sendable {
  let rawValue: Int
  static let touchDown = ButtonEvent(rawValue: 1 << 0)
  static let touchUpInside = ButtonEvent(rawValue: 1 << 1)
}

final class Document: Sendable {
  var isDirty: Bool { true }
  func save() {}
  func discard() {}
}
final class Store: Sendable { func save() {} }
final class Photo: Sendable {
  func delete() {}
  func share() {}
}
final class Printer: Sendable { func print(_ photo: Photo) {} }
final class Settings: Sendable { func archives(_ url: URL) -> Bool { true } }
final class Controller: Sendable { func allows(_ url: URL) -> Bool { true } }
final class Editor: Sendable { func isDirty(_ document: Document) -> Bool { document.isDirty } }
final class Mixer: Sendable { func apply(_ volume: Double) {} }
final class DownloadView: Sendable { func update(_ fraction: Double) {} }
final class Thumbnail: Sendable { func purge() {} }
final class Connection: Sendable { func close() {} }
final class FeedParser: Sendable { func feed(_ chunk: Data) {} }
final class ChunkHasher: Sendable { func update(_ chunk: some Collection<UInt8>) {} }
final class Screen: Sendable { func show(_ value: some Any) {} }
/// A label or a progress bar of a UI, used from the main actor.
final class Label: Configurable, @unchecked Sendable {
  var text = ""
  var isHidden = false
  init() {}
}
final class ProgressBar: @unchecked Sendable {
  var value = 0.0
  func update(_ fraction: Double) { value = fraction }
}
/// Any class, without a conformance (for associated values).
final class Widget: Sendable {}
typealias PlainView = Widget
let widget = Widget()
enum Keys { static let note = AssociatedKey<String>() }

struct Customer: Sendable { var name: String }
struct Line: Sendable {}
@Observable final class CounterModel: @unchecked Sendable {
  var count = 0
  var title = ""
}
@MainActor @Observable final class MainCounter { var count = 0 }
final class Model: Sendable {
  let saved = Event<String>()
  let failed = Event<String>()
}
