#if canImport(UIKit)
  import UIKit

  /// The picker's answer, carried through the continuation on the main actor.
  struct PickedMedia: @unchecked Sendable {
    // @unchecked Sendable: created and consumed on the main actor (UIKit's delegate thread).

    /// UIKit's info dictionary.
    let info: [UIImagePickerController.InfoKey: Any]
  }

  /// Resumes one `pickMedia(from:)` call exactly once.
  @MainActor
  final class PickOnce {
    /// The waiting call; `nil` once answered.
    var continuation: CheckedContinuation<PickedMedia, any Error>?

    /// Answers, the first time only.
    func finish(_ result: Result<PickedMedia, any Error>) {
      continuation?.resume(with: result)
      continuation = nil
    }
  }
#endif
