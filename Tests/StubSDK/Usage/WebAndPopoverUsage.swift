// Client code for Scripts/typecheck-uikit.sh and Scripts/typecheck-apple-sdk.sh: a web view's
// closure navigation delegate, and a popover's and a sheet's dismissal closures.
#if canImport(UIKit)
  import ClosureKitUIKit
  import Foundation
  import UIKit
  #if canImport(WebKit)
    import WebKit
  #endif

  #if canImport(WebKit)
    @MainActor
    final class WebUsage: UIViewController, WKNavigationDelegate {
      let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
      let status = UILabel()

      func bind() {
        webView.navigationDelegate = self  // kept as the previous delegate, and still called
        let navigation = webView.closureNavigationDelegate
        navigation.decidePolicy = { _, action in
          switch action.navigationType {
          case .linkActivated: .cancel
          default: .allow
          }
        }
        navigation.didStartProvisionalNavigation = { [status] _, _ in status.text = "Loading…" }
        navigation.didFinish = { [status] webView, navigation in
          status.text = webView.title
          _ = navigation
        }
        navigation.didFailProvisionalNavigation = { [status] _, _, error in status.text = "\(error)" }
        navigation.didFail = { [status] webView, _, error in
          status.text = webView.isLoading ? nil : "\(error)"
        }
        _ = navigation.previousDelegate
        navigation.decidePolicy = nil  // WebKit's default again: every request loads
      }
    }
  #endif

  @MainActor
  final class PopoverUsage: UIViewController {
    var hasUnsavedChanges = false

    func showSettings(from anchor: UIView) {
      let settings = UIViewController(nibName: nil, bundle: nil)
      settings.modalPresentationStyle = .popover
      if let popover = settings.popoverPresentationController {
        popover.sourceView = anchor
        popover.closureDelegate.shouldDismiss = { [weak self] _ in !(self?.hasUnsavedChanges ?? false) }
        popover.closureDelegate.didDismiss = { [weak self] presentation in
          self?.settingsClosed(presentation.presentedViewController)
        }
      }
      present(settings, animated: true, completion: nil)
    }

    func showSheet() {
      let sheet = UIViewController(nibName: nil, bundle: nil)
      let delegate: PresentationControllerDelegate? = sheet.presentationController?.closureDelegate
      delegate?.didDismiss = { _ in }
      _ = delegate?.previousDelegate
      present(sheet, animated: true, completion: nil)
    }

    func settingsClosed(_ controller: UIViewController) {}
  }
#endif
