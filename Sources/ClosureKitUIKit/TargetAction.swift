#if canImport(UIKit)
  public import Foundation

  /// A closure-backed target/action pair for any Objective-C target-action API.
  ///
  /// ```swift
  /// let pair = TargetAction(attachedTo: refreshControl) { sender in print("refresh from", sender as Any) }
  /// refreshControl.addTarget(pair.target, action: pair.action, for: .valueChanged)
  /// ```
  ///
  /// Hand ``target`` and ``action`` to the API; when it sends the action, the closure runs with the
  /// sender. Target-action APIs hold their target weakly (UIKit, AppKit) or strongly
  /// (`CADisplayLink`, `Timer`): attach the pair to the object that sends, and it lives exactly as
  /// long as that object, with no retain cycle through the closure's captures.
  ///
  /// > Important: The closure runs synchronously on the thread that sends the action (the main
  /// > thread for UIKit controls), every time, until ``detach(from:)`` or the attached object is
  /// > deallocated.
  public final class TargetAction: NSObject, Sendable {
    private let handler: @Sendable (_ sender: Any?) -> Void

    /// Creates a pair whose action runs `handler`; keep it alive yourself or ``attach(to:)`` it.
    ///
    /// ```swift
    /// let pair = TargetAction { _ in print("fired") }
    /// ```
    ///
    /// - Parameter handler: Receives the sender of the action (`nil` if the API sends none).
    public init(_ handler: @escaping @Sendable (_ sender: Any?) -> Void) {
      self.handler = handler
    }

    /// Creates a pair that lives as long as `object`.
    ///
    /// ```swift
    /// let pair = TargetAction(attachedTo: button) { _ in print("tapped") }
    /// button.addTarget(pair.target, action: pair.action, for: .touchUpInside)
    /// ```
    ///
    /// - Parameters:
    ///   - object: Retains the pair until it is deallocated or ``detach(from:)`` is called.
    ///   - handler: Receives the sender of the action.
    public convenience init(attachedTo object: AnyObject, _ handler: @escaping @Sendable (_ sender: Any?) -> Void) {
      self.init(handler)
      attach(to: object)
    }

    /// The object to pass as the target.
    ///
    /// ```swift
    /// control.addTarget(pair.target, action: pair.action, for: .valueChanged)
    /// ```
    public var target: NSObject { self }

    /// The selector to pass as the action; it takes the sender as its one argument.
    ///
    /// ```swift
    /// let item = UIBarButtonItem(title: "Go", style: .plain, target: pair.target, action: pair.action)
    /// ```
    public var action: Selector { #selector(TargetAction.performAction(_:)) }

    /// Makes `object` retain this pair until `object` is deallocated; attaching twice is harmless.
    ///
    /// ```swift
    /// pair.attach(to: displayLink)
    /// ```
    ///
    /// - Parameter object: The object that sends the action, usually.
    ///
    /// > Important: Use the same thread rules as the object: for UIKit objects, the main thread.
    public func attach(to object: AnyObject) {
      Association.set(self, on: object, key: associationKey)
    }

    /// Ends ``attach(to:)``: `object` no longer retains this pair.
    ///
    /// ```swift
    /// pair.detach(from: displayLink)
    /// ```
    ///
    /// - Parameter object: An object the pair was attached to.
    public func detach(from object: AnyObject) {
      Association.set(nil, on: object, key: associationKey)
    }

    /// A key unique to this pair, so that several pairs can be attached to one object.
    private var associationKey: UnsafeRawPointer {
      UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// The action method that Objective-C calls.
    @objc func performAction(_ sender: Any?) {
      handler(sender)
    }
  }
#endif
