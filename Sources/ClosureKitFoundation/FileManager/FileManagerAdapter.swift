import Foundation

/// The `FileManagerDelegate` behind ``FileOperationHandlers``. All sixteen methods are required on
/// Linux; each routes to the one closure of its kind, or answers `FileManager`'s documented
/// default (`true` for "should", `false` for "proceed after error") when the closure is unset.
final class FileManagerAdapter: NSObject, FileManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable (Linux's FileManagerDelegate requires Sendable): an adapter serves one
  // synchronous operation, and FileManager calls it on the thread that started that operation.
  private let shouldProcessItem: ((URL, URL?) -> Bool)?
  private let shouldProceedAfterError: ((any Error, URL, URL?) -> Bool)?

  init(_ handlers: FileOperationHandlers) {
    shouldProcessItem = handlers.shouldProcessItem
    shouldProceedAfterError = handlers.shouldProceedAfterError
  }

  private func should(_ source: URL, _ destination: URL?) -> Bool {
    shouldProcessItem?(source, destination) ?? true
  }

  private func proceed(_ error: any Error, _ source: URL, _ destination: URL?) -> Bool {
    shouldProceedAfterError?(error, source, destination) ?? false
  }

  private static func url(_ path: String) -> URL { URL(fileURLWithPath: path) }

  func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool {
    should(srcURL, dstURL)
  }

  func fileManager(_ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
    should(Self.url(srcPath), Self.url(dstPath))
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool {
    proceed(error, srcURL, dstURL)
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAtPath srcPath: String,
    toPath dstPath: String
  ) -> Bool {
    proceed(error, Self.url(srcPath), Self.url(dstPath))
  }

  func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool {
    should(srcURL, dstURL)
  }

  func fileManager(_ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
    should(Self.url(srcPath), Self.url(dstPath))
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool {
    proceed(error, srcURL, dstURL)
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAtPath srcPath: String,
    toPath dstPath: String
  ) -> Bool {
    proceed(error, Self.url(srcPath), Self.url(dstPath))
  }

  func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool {
    should(srcURL, dstURL)
  }

  func fileManager(_ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
    should(Self.url(srcPath), Self.url(dstPath))
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool {
    proceed(error, srcURL, dstURL)
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAtPath srcPath: String,
    toPath dstPath: String
  ) -> Bool {
    proceed(error, Self.url(srcPath), Self.url(dstPath))
  }

  func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool {
    should(URL, nil)
  }

  func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool {
    should(Self.url(path), nil)
  }

  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAt URL: URL)
    -> Bool
  {
    proceed(error, URL, nil)
  }

  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAtPath path: String
  ) -> Bool {
    proceed(error, Self.url(path), nil)
  }
}
