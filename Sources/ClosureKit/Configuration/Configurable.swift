/// A type whose instances can be set up in one expression with a configuration closure.
///
/// ```swift
/// final class Widget: Configurable {
///   var title = ""
/// }
/// let widget = Widget().configured { $0.title = "Hi" }
///
/// struct Insets: Configurable {
///   var top = 0.0, bottom = 0.0
/// }
/// let insets = Insets().configured { $0.top = 8 }
/// ```
///
/// Conform with an empty extension: `extension Widget: Configurable {}`. On Apple platforms
/// every `NSObject` subclass already conforms. For a class, `configured(_:)` hands the closure the
/// instance itself and returns it; for a value type, it hands the closure a copy to modify and
/// returns the copy.
public protocol Configurable {}

extension Configurable where Self: AnyObject {
  /// Runs `configure` on this instance and returns the instance.
  ///
  /// ```swift
  /// let label = Label().configured { label in
  ///   label.text = "Ready"
  ///   label.isHidden = false
  /// }
  /// ```
  ///
  /// - Parameter configure: Receives this instance; runs once, synchronously, before this returns.
  /// - Returns: This same instance.
  ///
  /// > Important: Runs `configure` on the calling thread; nothing is stored or retained.
  @inlinable
  @discardableResult
  public func configured(_ configure: (Self) throws -> Void) rethrows -> Self {
    try configure(self)
    return self
  }
}

extension Configurable {
  /// Returns a copy of this value modified by `configure`; the original is unchanged.
  ///
  /// ```swift
  /// let base = Insets(top: 0, bottom: 0)
  /// let padded = base.configured { $0.top = 8 }   // base.top is still 0
  /// ```
  ///
  /// - Parameter configure: Receives the copy as `inout`; runs once, synchronously.
  /// - Returns: The modified copy.
  ///
  /// > Important: Runs `configure` on the calling thread; nothing is stored or retained.
  @inlinable
  public func configured(_ configure: (inout Self) throws -> Void) rethrows -> Self {
    var copy = self
    try configure(&copy)
    return copy
  }
}
