import ClosureKitFoundation
import ClosureKitTestSupport
import Foundation
import Testing

/// A temporary directory with `src/a.txt`, `src/skip.tmp` and `src/sub/b.txt`, removed at deinit.
private final class Sandbox {
  let root: URL
  var source: URL { root.appendingPathComponent("src") }

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("closurekit-fm-\(UUID().uuidString)")
    let manager = FileManager.default
    try manager.createDirectory(at: source.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try Data("a".utf8).write(to: source.appendingPathComponent("a.txt"))
    try Data("t".utf8).write(to: source.appendingPathComponent("skip.tmp"))
    try Data("b".utf8).write(to: source.appendingPathComponent("sub/b.txt"))
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func contents(of directory: URL) -> [String] {
    ((try? FileManager.default.subpathsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }
}

@Suite struct FileManagerHandlersTests {
  @Test func unsetHandlersCopyEverything() throws {
    let sandbox = try Sandbox()
    let destination = sandbox.root.appendingPathComponent("dst")
    try FileManager.default.copyItem(at: sandbox.source, to: destination, handlers: FileOperationHandlers())
    #expect(sandbox.contents(of: destination) == ["a.txt", "skip.tmp", "sub", "sub/b.txt"])
  }

  @Test func shouldProcessItemAsksForEachItemAndSkipsRefusedOnes() throws {
    let sandbox = try Sandbox()
    let destination = sandbox.root.appendingPathComponent("dst")
    let asked = Recorder<String>()
    let handlers = FileOperationHandlers(shouldProcessItem: { source, target in
      asked.append(source.lastPathComponent)
      #expect(target != nil)
      return source.pathExtension != "tmp"
    })
    try FileManager.default.copyItem(at: sandbox.source, to: destination, handlers: handlers)
    #expect(asked.values.sorted() == ["a.txt", "b.txt", "skip.tmp", "src", "sub"])
    #expect(sandbox.contents(of: destination) == ["a.txt", "sub", "sub/b.txt"])
  }

  @Test func unsetErrorHandlerThrowsLikeFoundationWithoutADelegate() throws {
    let sandbox = try Sandbox()
    let file = sandbox.source.appendingPathComponent("a.txt")
    let existing = sandbox.source.appendingPathComponent("sub/b.txt")
    #expect(throws: (any Error).self) {
      try FileManager.default.copyItem(at: file, to: existing, handlers: FileOperationHandlers())
    }
    #expect(throws: (any Error).self) {
      try FileManager.default.copyItem(at: file, to: existing)
    }
  }

  @Test func errorHandlerThatProceedsSuppressesTheError() throws {
    let sandbox = try Sandbox()
    let errors = Recorder<String>()
    let handlers = FileOperationHandlers(shouldProceedAfterError: { _, source, _ in
      errors.append(source.lastPathComponent)
      return true
    })
    try FileManager.default.copyItem(
      at: sandbox.source.appendingPathComponent("a.txt"), to: sandbox.source.appendingPathComponent("sub/b.txt"),
      handlers: handlers)
    #expect(errors.values == ["a.txt"])
  }

  @Test func moveAsksThenMoves() throws {
    try expectAsksForTheItemThenCreates("moved.txt") { try FileManager.default.moveItem(at: $0, to: $1, handlers: $2) }
  }

  /// Runs `operation` on the sandbox's `a.txt` with a `shouldProcessItem` that records and allows,
  /// and expects that it asked about `a.txt` once and that `destinationName` exists afterwards.
  private func expectAsksForTheItemThenCreates(
    _ destinationName: String, _ operation: (URL, URL, FileOperationHandlers) throws -> Void
  ) throws {
    let sandbox = try Sandbox()
    let destination = sandbox.root.appendingPathComponent(destinationName)
    let asked = Recorder<String>()
    try operation(
      sandbox.source.appendingPathComponent("a.txt"), destination,
      FileOperationHandlers(shouldProcessItem: { source, _ in
        asked.append(source.lastPathComponent)
        return true
      }))
    #expect(asked.values == ["a.txt"])
    #expect(FileManager.default.fileExists(atPath: destination.path))
  }

  @Test func refusedMoveLeavesTheFile() throws {
    let sandbox = try Sandbox()
    let source = sandbox.source.appendingPathComponent("a.txt")
    let destination = sandbox.root.appendingPathComponent("moved.txt")
    try FileManager.default.moveItem(
      at: source, to: destination, handlers: FileOperationHandlers(shouldProcessItem: { _, _ in false }))
    #expect(FileManager.default.fileExists(atPath: source.path))
    #expect(!FileManager.default.fileExists(atPath: destination.path))
  }

  @Test func linkAsksForTheItem() throws {
    try expectAsksForTheItemThenCreates("link.txt") { try FileManager.default.linkItem(at: $0, to: $1, handlers: $2) }
  }

  @Test func removeSkipsRefusedItemsAndReportsTheDirectoryItCannotRemove() throws {
    let sandbox = try Sandbox()
    let errors = Recorder<String>()
    let handlers = FileOperationHandlers(
      shouldProcessItem: { item, destination in
        #expect(destination == nil)
        return item.pathExtension != "tmp"
      },
      shouldProceedAfterError: { _, item, _ in
        errors.append(item.lastPathComponent)
        return true
      })
    try FileManager.default.removeItem(at: sandbox.source, handlers: handlers)
    #expect(sandbox.contents(of: sandbox.source) == ["skip.tmp"])
    #expect(errors.values == ["src"])
  }

  @Test func removeOfAMissingItemThrowsWhenTheErrorHandlerIsUnset() throws {
    let sandbox = try Sandbox()
    #expect(throws: (any Error).self) {
      try FileManager.default.removeItem(
        at: sandbox.root.appendingPathComponent("missing"), handlers: FileOperationHandlers())
    }
  }

  @Test func closuresAreReleasedWhenTheOperationReturns() throws {
    let sandbox = try Sandbox()
    var captured: Tracked? = Tracked()
    weak let weakCaptured = captured
    do {
      let handlers = FileOperationHandlers(shouldProcessItem: { [captured] _, _ in captured != nil })
      captured = nil
      try FileManager.default.copyItem(
        at: sandbox.source, to: sandbox.root.appendingPathComponent("dst"), handlers: handlers)
    }
    #expect(weakCaptured == nil)
  }
}
