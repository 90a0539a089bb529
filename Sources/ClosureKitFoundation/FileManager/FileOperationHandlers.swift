public import Foundation

/// The closures that stand for `FileManagerDelegate` during one copy, move, link or remove.
///
/// ```swift
/// var handlers = FileOperationHandlers()
/// handlers.shouldProcessItem = { source, _ in source.pathExtension != "tmp" }   // skip .tmp files
/// try FileManager.default.copyItem(at: project, to: backup, handlers: handlers)
/// ```
///
/// Each unset closure means what `FileManager` does without a delegate: every item is processed
/// (`true`), and the first error stops the operation and is thrown (`false`).
///
/// > Important: The closures run synchronously on the thread that started the operation, once
/// > per item (on Linux a directory is asked about first, then each item inside it), and are
/// > released when the operation returns.
public struct FileOperationHandlers {
  /// Asked before each item is copied, moved, linked or removed: `source` is the item, and
  /// `destination` its new place (`nil` when removing). Return `false` to skip the item (and,
  /// for a directory, everything in it). Unset: every item is processed.
  ///
  /// ```swift
  /// handlers.shouldProcessItem = { source, _ in !source.lastPathComponent.hasPrefix(".") }
  /// ```
  public var shouldProcessItem: ((_ source: URL, _ destination: URL?) -> Bool)?
  /// Asked when an item fails: return `true` to go on with the next item and not throw the error.
  /// Unset: the operation stops and throws the error.
  ///
  /// ```swift
  /// handlers.shouldProceedAfterError = { error, source, _ in
  ///   print("skipping \(source.path): \(error)")
  ///   return true
  /// }
  /// ```
  public var shouldProceedAfterError: ((_ error: any Error, _ source: URL, _ destination: URL?) -> Bool)?

  /// Creates handlers; each closure you leave out keeps `FileManager`'s default.
  ///
  /// ```swift
  /// let handlers = FileOperationHandlers(shouldProceedAfterError: { error, _, _ in
  ///   print(error)
  ///   return true
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - shouldProcessItem: Whether to process an item; unset means yes.
  ///   - shouldProceedAfterError: Whether to go on after an error; unset means no (throw).
  public init(
    shouldProcessItem: ((_ source: URL, _ destination: URL?) -> Bool)? = nil,
    shouldProceedAfterError: ((_ error: any Error, _ source: URL, _ destination: URL?) -> Bool)? = nil
  ) {
    self.shouldProcessItem = shouldProcessItem
    self.shouldProceedAfterError = shouldProceedAfterError
  }
}

@available(*, unavailable)
extension FileOperationHandlers: Sendable {}
