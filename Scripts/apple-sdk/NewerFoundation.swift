// `Sendable` conformances that Apple's Foundation declares in SDKs newer than iPhoneOS16.5.sdk,
// declared for type-checking only and imported into the checked files of the modules that use
// Foundation (`-import-module`). Conformances only: never a Foundation declaration of our own.

import Foundation

// iOS 17's Foundation headers mark both `NS_SWIFT_SENDABLE` ("Protected by a lock"):
// NSOperation.h (`NSOperationQueue`) and NSNotification.h (`NSNotificationCenter`).
extension OperationQueue: @retroactive @unchecked Sendable {}
extension NotificationCenter: @retroactive @unchecked Sendable {}
