import ClosureKit

/// Keys the chapter attaches values under.
enum DemoKeys {
  static let badge = AssociatedKey<String>()
  static let tracker = AssociatedKey<ReleaseTracker>()
}

/// A value that says when it is released.
final class ReleaseTracker: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
  deinit { print("  \(name) released") }
}

/// A class the demo did not write for association: no stored property for a badge.
final class PlainView {
  let name: String
  init(_ name: String) { self.name = name }
  deinit { print("  \(name) deallocated") }
}

/// An object that is only looked up with, and goes without a word.
final class SilentObject {}

/// A configurable class and a configurable value.
final class Toolbar: Configurable {
  var title = ""
  var items: [String] = []
}

struct Margins: Configurable {
  var leading = 0
  var trailing = 0
}

/// A presented screen: it asks to be dismissed, its presenter decides how.
final class RenameScreen: Presentable {
  var fileName = ""
  init() {}
  func doneTapped() {
    print("  RenameScreen: done tapped, requesting dismiss")
    let answered = requestDismiss()
    print("  RenameScreen: request answered: \(answered)")
  }
}

extension Chapter {
  static let configuration = Chapter(
    name: "configuration",
    summary: "Associated values, configured { } and dismiss requests"
  ) {
    print("1. Attach a value to any object under a key:")
    do {
      let view = PlainView("view")
      DemoKeys.badge.setValue("3 unread", for: view)
      print("  badge: \(DemoKeys.badge.value(for: view) ?? "none")")
      DemoKeys.badge.removeValue(for: view)
      print("  after removeValue: \(DemoKeys.badge.value(for: view) ?? "none")")
      print("  the view goes out of scope:")
    }

    print("\n2. The value is released with its object:")
    do {
      let doomed = PlainView("doomed view")
      DemoKeys.tracker.setValue(ReleaseTracker("doomed view's tracker"), for: doomed)
    }
    #if canImport(ObjectiveC)
      print("  (Apple platforms: released at deallocation, above)")
    #else
      print("  (Linux: released by the side table's sweep, within a bounded number of accesses)")
      let probe = SilentObject()  // any object: each lookup advances the sweep
      for _ in 0..<AssociationTable.shared.count { _ = DemoKeys.badge.value(for: probe) }
    #endif

    print("\n3. configured { } for a class (same instance) and a value (modified copy):")
    let toolbar = Toolbar().configured {
      $0.title = "Files"
      $0.items = ["New", "Rename"]
    }
    print("  toolbar: \(toolbar.title) \(toolbar.items)")
    let base = Margins()
    let wide = base.configured { $0.leading = 16 }
    print("  base: \(base.leading), wide: \(wide.leading)")

    print("\n4. A presenter answers the presented screen's dismiss request:")
    var browser: FileBrowser? = FileBrowser(name: "FileBrowser")
    let screen = make(RenameScreen.self, owner: browser!) { screen in
      screen.fileName = "notes.txt"
    } onDismissRequest: { browser, screen in
      browser.close(screen)
    }
    screen.doneTapped()

    print("\n5. Once the presenter is gone, the request goes unanswered:")
    browser = nil
    screen.doneTapped()
  }
}

/// The presenter, bound with `owner:` so its closure needs no `[weak self]`.
typealias FileBrowser = DemoObject

extension FileBrowser {
  func close(_ screen: RenameScreen) { print("  \(name) closes the rename screen for \(screen.fileName)") }
}
