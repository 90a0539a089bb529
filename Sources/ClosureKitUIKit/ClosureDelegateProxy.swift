#if canImport(UIKit)
  public import Foundation

  /// The base of this layer's closure delegates (``TextFieldDelegate``,
  /// ``PresentationControllerDelegate``, ``ImagePickerDelegate``, `WebNavigationDelegate`): what
  /// they share is written here once. Each sits in front of the delegate its delegator had before
  /// (the *previous delegate*, held weakly), answers `responds(to:)` yes only for a method whose
  /// closure is set or that the previous delegate implements, and forwards every other delegate
  /// method to the previous delegate.
  ///
  /// ```swift
  /// let field = UITextField()
  /// let proxy: ClosureDelegateProxy = field.closureDelegate
  /// print(proxy.responds(to: #selector((any UITextFieldDelegate).textFieldShouldReturn(_:))))   // false: no closure
  /// ```
  ///
  /// You do not create or subclass one: get a subclass from its delegator (`closureDelegate`).
  ///
  /// > Important: Main-actor bound; UIKit and WebKit ask it on the main thread.
  @MainActor
  public class ClosureDelegateProxy: NSObject {
    /// The previous delegate and the installation in the delegator.
    let forwarding: DelegateForwarding

    /// A proxy for the delegate property `property` of `delegator`, which it holds weakly.
    init<Delegator: AnyObject, Previous>(
      delegator: Delegator,
      property: ReferenceWritableKeyPath<Delegator, Previous?>
    ) {
      forwarding = DelegateForwarding(
        read: { [weak delegator] in delegator?[keyPath: property] as? any NSObjectProtocol },
        write: { [weak delegator] delegate in delegator?[keyPath: property] = delegate as? Previous }
      )
      super.init()
    }

    /// The proxy of `delegator`, made by `make` on first use and kept with it, and made its
    /// delegate again if another object took its place: what every `closureDelegate` property
    /// returns.
    static func attached<Proxy: ClosureDelegateProxy>(to delegator: AnyObject, make: () -> Proxy) -> Proxy {
      let proxy = Association.value(of: delegator, make: make)
      proxy.forwarding.installIfReplaced(proxy)
      return proxy
    }

    /// Sets this object again if it is the delegate, so the delegator asks `responds(to:)` afresh:
    /// called when a closure is set or cleared.
    func closuresChanged() {
      forwarding.reinstall(self)
    }

    /// Whether a closure is set for `selector`; `nil` when it is not one of the closure methods.
    /// Each subclass overrides it for its own methods.
    func closureIsSet(for selector: Selector) -> Bool? {
      nil
    }

    /// Yes for a method whose closure is set or that the previous delegate implements.
    ///
    /// ```swift
    /// field.closureDelegate.shouldReturn = { _ in false }
    /// print(field.closureDelegate.responds(to: #selector((any UITextFieldDelegate).textFieldShouldReturn(_:))))   // true
    /// ```
    ///
    /// - Parameter aSelector: A delegate method's selector.
    /// - Returns: Whether UIKit (or WebKit) should call it.
    ///
    /// > Important: Must be asked on the main thread, as UIKit and WebKit do.
    public nonisolated override func responds(to aSelector: Selector!) -> Bool {
      MainActor.assumeIsolated {
        forwarding.responds(to: aSelector, hasClosure: closureIsSet(for: aSelector)) { super.responds(to: aSelector) }
      }
    }

    /// Sends delegate methods this class does not implement to the previous delegate.
    ///
    /// ```swift
    /// // UIKit calls textFieldDidChangeSelection(_:) on the previous delegate through this.
    /// ```
    ///
    /// - Parameter aSelector: A selector this object does not implement.
    /// - Returns: The previous delegate, if any.
    ///
    /// > Important: Must be asked on the main thread, as the Objective-C runtime does for UIKit.
    public nonisolated override func forwardingTarget(for aSelector: Selector!) -> Any? {
      MainActor.assumeIsolated { forwarding.forwardingTarget }.object
    }
  }
#endif
