// Negative control for Scripts/typecheck-uikit.sh, against the stub MessageUI: MessageUI's delegate
// protocols are not main-actor annotated in the iOS 16.5 SDK, so a main-actor method cannot
// satisfy their requirement. This is why the layer's composer delegates (and its WebKit navigation
// delegate) implement them `nonisolated` and check the main thread with `MainActor.assumeIsolated`.
// expected-error: conformance of 'MainActorComposerWitness' to protocol 'MFMessageComposeViewControllerDelegate' crosses into main actor-isolated code and can cause data races
import MessageUI
import UIKit

@MainActor
final class MainActorComposerWitness: NSObject, MFMessageComposeViewControllerDelegate {
  func messageComposeViewController(
    _ controller: MFMessageComposeViewController,
    didFinishWith result: MessageComposeResult
  ) {}
}
