public import Foundation

extension FileManager {
  /// Copies the item at `source` to `destination`, asking `handlers` about each item and error.
  ///
  /// ```swift
  /// try FileManager.default.copyItem(
  ///   at: project, to: backup,
  ///   handlers: FileOperationHandlers(shouldProcessItem: { source, _ in source.lastPathComponent != ".build" }))
  /// ```
  ///
  /// - Parameters:
  ///   - source: The file or directory to copy.
  ///   - destination: Where the copy goes; must not exist.
  ///   - handlers: The closures; each unset one keeps `FileManager`'s default.
  /// - Throws: The first error that ``FileOperationHandlers/shouldProceedAfterError`` did not
  ///   accept (all of them when it is unset).
  ///
  /// > Important: Synchronous; the closures run on the calling thread. The operation runs on a
  /// > `FileManager` of its own, so the receiver's `delegate` (shared, for `FileManager.default`)
  /// > is neither used nor changed.
  public func copyItem(at source: URL, to destination: URL, handlers: FileOperationHandlers) throws {
    try Self.perform(handlers) { try $0.copyItem(at: source, to: destination) }
  }

  /// Moves the item at `source` to `destination`, asking `handlers` about each item and error.
  ///
  /// ```swift
  /// try FileManager.default.moveItem(at: draft, to: published, handlers: FileOperationHandlers())
  /// ```
  ///
  /// - Parameters:
  ///   - source: The file or directory to move.
  ///   - destination: Its new place; must not exist.
  ///   - handlers: The closures; each unset one keeps `FileManager`'s default.
  /// - Throws: The first error that ``FileOperationHandlers/shouldProceedAfterError`` did not accept.
  ///
  /// > Important: Synchronous, on a `FileManager` of its own, as ``copyItem(at:to:handlers:)``.
  public func moveItem(at source: URL, to destination: URL, handlers: FileOperationHandlers) throws {
    try Self.perform(handlers) { try $0.moveItem(at: source, to: destination) }
  }

  /// Creates a hard link at `destination` to the item at `source`, asking `handlers` first.
  ///
  /// ```swift
  /// try FileManager.default.linkItem(at: original, to: alias, handlers: FileOperationHandlers())
  /// ```
  ///
  /// - Parameters:
  ///   - source: The item to link to.
  ///   - destination: The new link; must not exist.
  ///   - handlers: The closures; each unset one keeps `FileManager`'s default.
  /// - Throws: The first error that ``FileOperationHandlers/shouldProceedAfterError`` did not accept.
  ///
  /// > Important: Synchronous, on a `FileManager` of its own, as ``copyItem(at:to:handlers:)``.
  public func linkItem(at source: URL, to destination: URL, handlers: FileOperationHandlers) throws {
    try Self.perform(handlers) { try $0.linkItem(at: source, to: destination) }
  }

  /// Removes the item at `url` (a directory with its contents), asking `handlers` about each item.
  ///
  /// ```swift
  /// try FileManager.default.removeItem(
  ///   at: cache, handlers: FileOperationHandlers(shouldProcessItem: { item, _ in item.pathExtension != "keep" }))
  /// ```
  ///
  /// - Parameters:
  ///   - url: The file or directory to remove.
  ///   - handlers: The closures (`destination` is always `nil`); each unset one keeps the default.
  /// - Throws: The first error that ``FileOperationHandlers/shouldProceedAfterError`` did not
  ///   accept. A directory whose items were skipped cannot be removed: that is an error too.
  ///
  /// > Important: Synchronous, on a `FileManager` of its own, as ``copyItem(at:to:handlers:)``.
  public func removeItem(at url: URL, handlers: FileOperationHandlers) throws {
    try Self.perform(handlers) { try $0.removeItem(at: url) }
  }

  /// Runs `operation` on a fresh `FileManager` whose delegate is an adapter for `handlers`.
  private static func perform(_ handlers: FileOperationHandlers, _ operation: (FileManager) throws -> Void) throws {
    let manager = FileManager()
    let adapter = FileManagerAdapter(handlers)
    manager.delegate = adapter  // held weakly by FileManager: kept alive by this frame
    defer { manager.delegate = nil }
    try withExtendedLifetime(adapter) { try operation(manager) }
  }
}
