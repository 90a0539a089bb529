// feedwatch: the program the Getting Started article builds, step by step
// (Sources/ClosureKit/Documentation.docc/GettingStarted.md). A timer polls a feed served by a
// local HTTP server, each download is parsed into an observed model, new items are broadcast to
// whoever listens, and a dialog in the terminal asks a question at the end. It needs no network
// and ends by itself: `swift run feedwatch` (answers from standard input; with none, the dialog
// is dismissed).
import ClosureKit
import ClosureKitFoundation
import ClosureKitTestServer
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// MARK: Step 1: the model

struct FeedItem: Sendable, Hashable {
  let id: String
  let title: String
}

final class FeedModel: Sendable {
  /// The items the feed listed last; every write tells the box's observers.
  let items = Observed<[FeedItem]>([])
  /// Each item the first time the feed lists it.
  let newItems = Event<FeedItem>()

  init() {
    items.observe(options: [.old, .new]) { [newItems] change in
      let known = Set(change.oldValue ?? [])
      for item in (change.newValue ?? []).reversed() where !known.contains(item) {
        newItems.send(item)
      }
    }
  }
}

// MARK: Step 2: parsing the feed

func parseFeed(_ data: Data) throws -> [FeedItem] {
  var items: [FeedItem] = []
  var text = ""
  var id = ""
  var title = ""
  var handlers = XMLParserHandlers()
  handlers.didStartElement = { _, _, _, _ in text = "" }
  handlers.foundCharacters = { text += $0 }
  handlers.didEndElement = { name, _, _ in
    switch name {
    case "guid": id = text
    case "title": title = text
    case "item": items.append(FeedItem(id: id, title: title))
    default: break
    }
  }
  try ClosureXMLParser.parse(data, handlers: handlers)
  return items
}

func watchFeed() async throws {
  // MARK: Step 3: a server and a session

  let server = try LoopbackServer()
  defer { server.stop() }
  let session = ClosureURLSession()
  defer { session.finishTasksAndInvalidate() }
  let feedURL = server.url("/feed/3")

  // MARK: Step 4: listening for new items

  let model = FeedModel()
  model.newItems.addHandler { item in
    print("  new: \(item.title)")
  }

  // MARK: Step 5: polling on a timer

  for await tick in ClosureTimer.ticks(.every(.milliseconds(300), repeatCount: 3)) {
    print("poll \(tick)")
    let (data, _) = try await session.data(from: feedURL)
    model.items.value = try parseFeed(data)
  }

  // MARK: Step 6: asking a question

  let alert = AlertDialog(title: "\(model.items.value.count) items", message: "Mark them all as read?")
  alert.addButton("Later", role: .cancel) { _ in print("kept unread") }
  alert.addButton("Mark as read") { _ in print("marked as read") }
  let answer = try await alert.present(on: TerminalPresenter())
  print(answer.isDismissed ? "no answer: the dialog was dismissed" : "answered \(answer.title ?? "")")
}

try await watchFeed()
