// Hidden preambles of documentation examples, by source file (`// MARK: <path>`) or by block
// (`// MARK: <path>:<line>`, the line of the block's first code line). Scripts/check-examples.sh puts
// the matching sections at the top of a snippet's function, before the snippet's own `do {}` scope:
// what the reader of that file's examples knows from the documented type (the `event` of Event's
// examples, the `request` of a presenter's). Several `// MARK:` lines in a row share the section under
// them. Shared stand-ins are in Context.swift.

// MARK: Sources/ClosureKit/Timers/ClosureTimer.swift
var timer = makeTimer()
@Sendable func refresh() {}
@Sendable func reload() {}

// MARK: Sources/ClosureKit/Timers/ClosureTimer+Control.swift
var timer = makeTimer()
@Sendable func reload() {}

// MARK: Sources/ClosureKit/Delegates/Delegate.swift
let shouldSave = Delegate<Document, Bool>()

// MARK: Sources/ClosureKit/Configuration/WeakAssociatedKey.swift
enum Keys { static let parent = WeakAssociatedKey<Widget>() }
let child = Widget()
var parent: Widget? = Widget()

// MARK: Sources/ClosureKit/Dialogs/DialogPresenter.swift
// MARK: Sources/ClosureKit/Dialogs/DialogRequest.swift
// MARK: Sources/ClosureKitTesting/ScriptedPresenter.swift
let request = DialogRequest(
  style: .alert, title: "Hi", message: nil, buttons: [DialogButton(title: "OK", role: .default)], textFields: []
) { _ in true }

// MARK: Sources/ClosureKitFoundation/TerminalPresenter.swift
let request = DialogRequest(
  style: .alert, title: "Hi", message: nil, buttons: [DialogButton(title: "OK", role: .default)], textFields: []
) { _ in true }
let pipeRead: Int32 = 0
let logFile: Int32 = 2

// MARK: Sources/ClosureKit/Events/Event+AsyncSequence.swift
let scrolled = Event<Double>()

// MARK: Sources/ClosureKit/Events/HandlerValues.swift
let event = Event<Int>()
var iterator = event.values.makeAsyncIterator()

// MARK: Sources/ClosureKit/Events/Event+MainActor.swift
let renamed = Event<String>()

// MARK: Sources/ClosureKit/Events/Event.swift
let loaded = Event<Void>()

// MARK: Sources/ClosureKit/Delegates/KeepAlive.swift
let keepAlive = KeepAlive()
final class Adapter: Sendable { let keepAlive = KeepAlive() }
let adapter = Adapter()
func parse() throws {}

// MARK: Sources/ClosureKit/Observation/Change.swift
let handler: @Sendable (Change<Int>) -> Void = { _ in }

// MARK: Sources/ClosureKit/Observation/ObservationOptions.swift
let count = Observed(0)

// MARK: Sources/ClosureKit/Observation/Observed.swift
final class Player: @unchecked Sendable { @Observed var score = 0 }
let player = Player()
final class ThemeSettings: @unchecked Sendable { @Observed var theme = "light" }
let settings = ThemeSettings()

// MARK: Sources/ClosureKit/Events/HandlerSubscription.swift
let subscription = HandlerSubscription {}

// MARK: Sources/ClosureKitFoundation/Cache/ClosureCache.swift
let cache = ClosureCache<NSString, Thumbnail>()

// MARK: Sources/ClosureKitFoundation/FileManager/FileManager+Handlers.swift
let cache = URL(fileURLWithPath: "/tmp/closurekit-example/cache")

// MARK: Sources/ClosureKitFoundation/FileManager/FileOperationHandlers.swift
var handlers = FileOperationHandlers()

// MARK: Sources/ClosureKitFoundation/ClosureURLSession+AsyncBytes.swift
let (bytes, _) = try await session.bytes(for: request)
var iterator = bytes.makeAsyncIterator()

// MARK: Sources/ClosureKitFoundation/ClosureURLSession+Lines.swift
let (bytes, _) = try await session.bytes(for: request)
var iterator = bytes.lines.makeAsyncIterator()

// MARK: Sources/ClosureKitFoundation/Notifications/NotificationCenter.Notifications.swift
let saves = NotificationCenter.default.notifications(named: .documentSaved)
var iterator = saves.makeAsyncIterator()

// MARK: Sources/ClosureKitFoundation/TransferProgress.swift
let progress = TransferProgress(completedBytes: 50, expectedBytes: 100)

// MARK: Sources/ClosureKitFoundation/XML/XMLEventSequence.swift
let events = XMLParser.events(in: data)
var iterator = events.makeAsyncIterator()

// MARK: Sources/ClosureKitFoundation/XML/XMLParserHandlers.swift
var handlers = XMLParserHandlers()

// MARK: Sources/ClosureKitTesting/Expectation.swift
let done = Expectation()
let timer = makeTimer()

// MARK: Sources/ClosureKitTesting/ManualClock.swift
let clock = ManualClock()
final class Counter: @unchecked Sendable {
  var value = 0
  func increment() { value += 1 }
}

// MARK: Sources/ClosureKit/Configuration/Configurable.swift
struct Insets: Configurable { var top = 0.0, bottom = 0.0 }

// MARK: Sources/ClosureKit/Configuration/DismissRequesting.swift
final class EditScreen: DismissRequesting { func saveTapped() { requestDismiss() } }
final class ShareSheet: DismissRequesting {}

// MARK: Sources/ClosureKit/Configuration/Presentable.swift
final class EditScreen: Presentable {
  var title = ""
  init() {}
}

// MARK: Sources/ClosureKit/Observation/Observable+ObserveMainActor.swift
@MainActor
let counter = MainCounter()

// MARK: Sources/ClosureKit/Observation/Observable+ObserveKeyPathsMainActor.swift
@MainActor
let counter = MainCounter()

// MARK: Sources/ClosureKitFoundation/ClosureURLSession+AsyncBytes.swift:111
let (bytes, _) = try await session.bytes(for: request)
var iterator = bytes.chunks.makeAsyncIterator()

// MARK: Sources/ClosureKitFoundation/XML/XMLParsingError.swift
let error = XMLParsingError(code: .tagNameMismatch, line: 4, column: 24)

// MARK: Sources/ClosureKit/Event+MainActorOnce.swift
let loaded = Event<Void>()

// MARK: Sources/ClosureKit/Observation/Observed+MainActor.swift
let volume = Observed(0)

// MARK: Sources/ClosureKitFoundation/XML/ClosureXMLParser.swift
let handlers = XMLParserHandlers()

// MARK: Sources/ClosureKit/Documentation.docc/GettingStarted.md
// What the article's earlier steps declared (Examples/FeedWatch/main.swift has them all).
struct FeedItem: Sendable, Hashable {
  let id: String
  let title: String
}
final class FeedModel: Sendable {
  let items = Observed<[FeedItem]>([])
  let newItems = Event<FeedItem>()
}
func parseFeed(_ data: Data) throws -> [FeedItem] { [] }
let server = try LoopbackServer()
let feedURL = server.url("/feed/3")
let session = ClosureURLSession()
let model = FeedModel()

// MARK: Sources/ClosureKit/Timers/ClosureTimer+AsyncSequence.swift
var iterator = ClosureTimer.ticks(.every(.seconds(1))).makeAsyncIterator()
