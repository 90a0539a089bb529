import ClosureKit

/// How far a transfer has come: bytes done and, when known, bytes expected.
///
/// ```swift
/// let handlers = URLTaskHandlers(downloadProgress: { progress in
///   print("\(progress.completedBytes) of \(progress.expectedBytes ?? -1)")
/// })
/// ```
///
/// > Important: A value type; ClosureKit computes it from the bytes it has seen, not from the totals
/// > FoundationNetworking passes to its delegate (those are stale for download tasks on Linux).
public struct TransferProgress: Sendable, Hashable {
  /// Bytes transferred so far.
  public var completedBytes: Int64
  /// Bytes the transfer announced (`Content-Length`, or the upload body's size); `nil` if unknown,
  /// and for a content-encoded (e.g. gzip) response body, whose `Content-Length` counts encoded
  /// bytes while `completedBytes` counts the decoded ones.
  public var expectedBytes: Int64?

  /// Creates a progress value.
  ///
  /// ```swift
  /// let half = TransferProgress(completedBytes: 50, expectedBytes: 100)
  /// ```
  ///
  /// - Parameters:
  ///   - completedBytes: Bytes transferred so far; not negative.
  ///   - expectedBytes: Bytes expected in total, or `nil` if unknown.
  public init(completedBytes: Int64, expectedBytes: Int64?) {
    if completedBytes < 0 { failPrecondition("TransferProgress: the argument `completedBytes` must not be negative") }
    self.completedBytes = completedBytes
    self.expectedBytes = expectedBytes
  }

  /// The fraction done, from 0 to 1; `nil` when the expected size is unknown.
  ///
  /// ```swift
  /// if let fraction = progress.fractionCompleted { bar.update(fraction) }
  /// ```
  public var fractionCompleted: Double? {
    guard let expectedBytes, expectedBytes > 0 else { return nil }
    return min(1, Double(completedBytes) / Double(expectedBytes))
  }
}
