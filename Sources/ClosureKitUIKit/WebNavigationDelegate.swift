#if canImport(UIKit) && canImport(WebKit)
  import Foundation
  import UIKit
  public import WebKit

  /// A `WKWebView`'s navigation delegate made of closures; get it with
  /// `webView.closureNavigationDelegate`.
  ///
  /// ```swift
  /// let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
  /// webView.closureNavigationDelegate.decidePolicy = { _, action in
  ///   action.navigationType == .linkActivated ? .cancel : .allow
  /// }
  /// webView.closureNavigationDelegate.didFinish = { webView, _ in label.text = webView.title }
  /// ```
  ///
  /// Only the closures that are set count: `responds(to:)` answers yes for a method whose closure
  /// is set (or that the previous delegate implements), so WebKit keeps its default for the others
  /// (with no `decidePolicy`, it loads every request). A delegate set before keeps being called: it
  /// decides the policy when no closure is set, is told the rest after the closure, and receives
  /// every other navigation delegate method.
  ///
  /// > Important: Main-actor bound; WebKit calls its navigation delegate on the main thread. Setting
  /// > a closure re-installs the delegate, because WebKit caches `responds(to:)` answers when its
  /// > delegate is set.
  @MainActor
  public final class WebNavigationDelegate: ClosureDelegateProxy, WKNavigationDelegate {
    /// Decides whether a navigation may happen: `.allow`, `.cancel` or `.download`.
    public var decidePolicy:
      (@MainActor (_ webView: WKWebView, _ navigationAction: WKNavigationAction) -> WKNavigationActionPolicy)?
    {
      didSet { closuresChanged() }
    }
    /// Told when a main-frame navigation starts (WebKit's provisional navigation).
    public var didStartProvisionalNavigation: (@MainActor (_ webView: WKWebView, _ navigation: WKNavigation?) -> Void)?
    {
      didSet { closuresChanged() }
    }
    /// Told when a main-frame navigation finished.
    public var didFinish: (@MainActor (_ webView: WKWebView, _ navigation: WKNavigation?) -> Void)? {
      didSet { closuresChanged() }
    }
    /// Told when a navigation failed before any content arrived (an unknown host, no network).
    public var didFailProvisionalNavigation:
      (@MainActor (_ webView: WKWebView, _ navigation: WKNavigation?, _ error: any Error) -> Void)?
    {
      didSet { closuresChanged() }
    }
    /// Told when a committed navigation failed while its content was loading.
    public var didFail: (@MainActor (_ webView: WKWebView, _ navigation: WKNavigation?, _ error: any Error) -> Void)? {
      didSet { closuresChanged() }
    }

    /// The navigation delegate the web view had before, which keeps being called; held weakly.
    public var previousDelegate: (any WKNavigationDelegate)? {
      forwarding.previous as? any WKNavigationDelegate
    }

    init(webView: WKWebView) {
      super.init(delegator: webView, property: \.navigationDelegate)
    }

    /// Whether a closure is set for `selector`; `nil` when it is not one of the closure methods.
    override func closureIsSet(for selector: Selector) -> Bool? {
      switch selector {
      // This class's own method: the protocol has two `webView(_:decidePolicyFor:decisionHandler:)`
      // (for a navigation action and for a navigation response), so naming it there is ambiguous.
      case #selector(WebNavigationDelegate.webView(_:decidePolicyFor:decisionHandler:)):
        decidePolicy != nil
      case #selector((any WKNavigationDelegate).webView(_:didStartProvisionalNavigation:)):
        didStartProvisionalNavigation != nil
      case #selector((any WKNavigationDelegate).webView(_:didFinish:)):
        didFinish != nil
      case #selector((any WKNavigationDelegate).webView(_:didFailProvisionalNavigation:withError:)):
        didFailProvisionalNavigation != nil
      case #selector((any WKNavigationDelegate).webView(_:didFail:withError:)):
        didFail != nil
      default: nil
      }
    }

    /// WebKit asks whether a navigation may happen: ``decidePolicy`` answers, else the previous
    /// delegate.
    ///
    /// ```swift
    /// webView.closureNavigationDelegate.decidePolicy = { _, _ in .allow }
    /// ```
    ///
    /// - Parameters:
    ///   - webView: The web view.
    ///   - navigationAction: What triggers the navigation.
    ///   - decisionHandler: Called once with the policy, at once.
    ///
    /// > Important: Called by WebKit on the main thread; `nonisolated` only because the SDK's
    /// > protocol is not main-actor annotated: it checks that it runs on the main actor.
    public nonisolated func webView(
      _ webView: WKWebView,
      decidePolicyFor navigationAction: WKNavigationAction,
      decisionHandler: @escaping @Sendable (WKNavigationActionPolicy) -> Void
    ) {
      let call = MainThreadBox(navigationAction)
      MainActor.assumeIsolated {
        let navigationAction = call.value
        if let decidePolicy { return decisionHandler(decidePolicy(webView, navigationAction)) }
        let forwarded: Void? = previousDelegate?.webView?(
          webView,
          decidePolicyFor: navigationAction,
          decisionHandler: decisionHandler
        )
        if forwarded == nil { decisionHandler(.allow) }  // WebKit's default, should it ask anyway
      }
    }

    /// WebKit tells that a main-frame navigation started: ``didStartProvisionalNavigation`` runs,
    /// then the previous delegate's method.
    ///
    /// ```swift
    /// webView.closureNavigationDelegate.didStartProvisionalNavigation = { _, _ in label.text = "Loading…" }
    /// ```
    ///
    /// - Parameters:
    ///   - webView: The web view.
    ///   - navigation: The navigation.
    ///
    /// > Important: Called by WebKit on the main thread; it checks that it runs on the main actor.
    public nonisolated func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
      let navigation = MainThreadBox(navigation as WKNavigation?)
      MainActor.assumeIsolated {
        didStartProvisionalNavigation?(webView, navigation.value)
        previousDelegate?.webView?(webView, didStartProvisionalNavigation: navigation.value)
      }
    }

    /// WebKit tells that a main-frame navigation finished: ``didFinish`` runs, then the previous
    /// delegate's method.
    ///
    /// ```swift
    /// webView.closureNavigationDelegate.didFinish = { webView, _ in label.text = webView.title }
    /// ```
    ///
    /// - Parameters:
    ///   - webView: The web view.
    ///   - navigation: The navigation.
    ///
    /// > Important: Called by WebKit on the main thread; it checks that it runs on the main actor.
    public nonisolated func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
      let navigation = MainThreadBox(navigation as WKNavigation?)
      MainActor.assumeIsolated {
        didFinish?(webView, navigation.value)
        previousDelegate?.webView?(webView, didFinish: navigation.value)
      }
    }

    /// WebKit tells that a navigation failed before content arrived: ``didFailProvisionalNavigation``
    /// runs, then the previous delegate's method.
    ///
    /// ```swift
    /// webView.closureNavigationDelegate.didFailProvisionalNavigation = { _, _, error in
    ///   label.text = "\(error)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - webView: The web view.
    ///   - navigation: The navigation.
    ///   - error: Why it failed.
    ///
    /// > Important: Called by WebKit on the main thread; it checks that it runs on the main actor.
    public nonisolated func webView(
      _ webView: WKWebView,
      didFailProvisionalNavigation navigation: WKNavigation!,
      withError error: any Error
    ) {
      let navigation = MainThreadBox(navigation as WKNavigation?)
      MainActor.assumeIsolated {
        didFailProvisionalNavigation?(webView, navigation.value, error)
        previousDelegate?.webView?(webView, didFailProvisionalNavigation: navigation.value, withError: error)
      }
    }

    /// WebKit tells that a committed navigation failed: ``didFail`` runs, then the previous
    /// delegate's method.
    ///
    /// ```swift
    /// webView.closureNavigationDelegate.didFail = { _, _, error in label.text = "\(error)" }
    /// ```
    ///
    /// - Parameters:
    ///   - webView: The web view.
    ///   - navigation: The navigation.
    ///   - error: Why it failed.
    ///
    /// > Important: Called by WebKit on the main thread; it checks that it runs on the main actor.
    public nonisolated func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    {
      let navigation = MainThreadBox(navigation as WKNavigation?)
      MainActor.assumeIsolated {
        didFail?(webView, navigation.value, error)
        previousDelegate?.webView?(webView, didFail: navigation.value, withError: error)
      }
    }
  }

  extension WKWebView {
    /// The closure navigation delegate of this web view, installed as its `navigationDelegate` on
    /// first use.
    ///
    /// ```swift
    /// webView.closureNavigationDelegate.didFinish = { webView, _ in label.text = webView.title }
    /// ```
    ///
    /// A navigation delegate set before keeps being called. If you set `navigationDelegate` to
    /// another object later, the closures stop until you read this property again, which
    /// re-installs it in front of that one.
    ///
    /// > Important: Main actor; lives as long as the web view.
    public var closureNavigationDelegate: WebNavigationDelegate {
      .attached(to: self) { WebNavigationDelegate(webView: self) }
    }
  }
#endif
