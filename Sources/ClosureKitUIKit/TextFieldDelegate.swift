#if canImport(UIKit)
  public import Foundation
  public import UIKit

  /// A `UITextFieldDelegate` made of closures; get it with `textField.closureDelegate`.
  ///
  /// ```swift
  /// field.closureDelegate.shouldReturn = { field in
  ///   field.resignFirstResponder()
  ///   return false
  /// }
  /// field.closureDelegate.shouldChangeCharacters = { _, _, replacement in
  ///   replacement.allSatisfy(\.isNumber)
  /// }
  /// ```
  ///
  /// Only the closures that are set count: `responds(to:)` answers yes for a method whose closure
  /// is set (or that the previous delegate implements), so UIKit keeps its default behaviour for
  /// the others. A delegate that was set before keeps being called: a closure that is set answers
  /// a question (`should…`), otherwise the previous delegate answers; a notification (`did…`) goes
  /// to the closure and then to the previous delegate; every other delegate method goes straight
  /// to the previous delegate.
  ///
  /// > Important: Main-actor bound; UIKit asks `responds(to:)` on the main thread, and so must you.
  /// > Setting a closure re-installs the delegate, because UIKit caches `responds(to:)` answers when
  /// > its delegate is set.
  @MainActor
  public final class TextFieldDelegate: ClosureDelegateProxy, UITextFieldDelegate {
    /// Asked before editing begins; `false` refuses to become first responder.
    public var shouldBeginEditing: (@MainActor (_ textField: UITextField) -> Bool)? {
      didSet { closuresChanged() }
    }
    /// Asked when Return is pressed; `false` skips the text field's default behaviour.
    public var shouldReturn: (@MainActor (_ textField: UITextField) -> Bool)? {
      didSet { closuresChanged() }
    }
    /// Asked before each edit with the range and the replacement string; `false` refuses it.
    public var shouldChangeCharacters:
      (@MainActor (_ textField: UITextField, _ range: NSRange, _ replacement: String) -> Bool)?
    {
      didSet { closuresChanged() }
    }
    /// Told after editing ended.
    public var didEndEditing: (@MainActor (_ textField: UITextField) -> Void)? {
      didSet { closuresChanged() }
    }

    /// The delegate the text field had before, which keeps being called; held weakly.
    public var previousDelegate: (any UITextFieldDelegate)? {
      forwarding.previous as? any UITextFieldDelegate
    }

    init(textField: UITextField) {
      super.init(delegator: textField, property: \.delegate)
    }

    /// Whether a closure is set for `selector`; `nil` when it is not one of the closure methods.
    override func closureIsSet(for selector: Selector) -> Bool? {
      switch selector {
      case #selector((any UITextFieldDelegate).textFieldShouldBeginEditing(_:)): shouldBeginEditing != nil
      case #selector((any UITextFieldDelegate).textFieldShouldReturn(_:)): shouldReturn != nil
      case #selector((any UITextFieldDelegate).textField(_:shouldChangeCharactersIn:replacementString:)):
        shouldChangeCharacters != nil
      case #selector((any UITextFieldDelegate).textFieldDidEndEditing(_:)): didEndEditing != nil
      default: nil
      }
    }

    /// UIKit asks whether editing may begin: ``shouldBeginEditing``, else the previous delegate.
    ///
    /// ```swift
    /// field.closureDelegate.shouldBeginEditing = { _ in isEditable }
    /// ```
    ///
    /// - Parameter textField: The text field.
    /// - Returns: The closure's answer, else the previous delegate's, else `true` (UIKit's default).
    ///
    /// > Important: Called by UIKit on the main actor.
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool {
      if let shouldBeginEditing { return shouldBeginEditing(textField) }
      return previousDelegate?.textFieldShouldBeginEditing?(textField) ?? true
    }

    /// UIKit asks what Return does: ``shouldReturn``, else the previous delegate.
    ///
    /// ```swift
    /// field.closureDelegate.shouldReturn = { field in field.resignFirstResponder() }
    /// ```
    ///
    /// - Parameter textField: The text field.
    /// - Returns: The closure's answer, else the previous delegate's, else `true`.
    ///
    /// > Important: Called by UIKit on the main actor.
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool {
      if let shouldReturn { return shouldReturn(textField) }
      return previousDelegate?.textFieldShouldReturn?(textField) ?? true
    }

    /// UIKit asks whether an edit may happen: ``shouldChangeCharacters``, else the previous delegate.
    ///
    /// ```swift
    /// field.closureDelegate.shouldChangeCharacters = { _, _, replacement in replacement.count < 2 }
    /// ```
    ///
    /// - Parameters:
    ///   - textField: The text field.
    ///   - range: The range of the text to replace.
    ///   - string: The replacement.
    /// - Returns: The closure's answer, else the previous delegate's, else `true`.
    ///
    /// > Important: Called by UIKit on the main actor.
    public func textField(
      _ textField: UITextField,
      shouldChangeCharactersIn range: NSRange,
      replacementString string: String
    ) -> Bool {
      if let shouldChangeCharacters { return shouldChangeCharacters(textField, range, string) }
      return previousDelegate?.textField?(textField, shouldChangeCharactersIn: range, replacementString: string) ?? true
    }

    /// UIKit tells that editing ended: ``didEndEditing`` runs, then the previous delegate's method.
    ///
    /// ```swift
    /// field.closureDelegate.didEndEditing = { field in save(field.text) }
    /// ```
    ///
    /// - Parameter textField: The text field.
    ///
    /// > Important: Called by UIKit on the main actor.
    public func textFieldDidEndEditing(_ textField: UITextField) {
      didEndEditing?(textField)
      previousDelegate?.textFieldDidEndEditing?(textField)
    }
  }

  extension UITextField {
    /// The closure delegate of this text field, installed as its `delegate` on first use.
    ///
    /// ```swift
    /// field.closureDelegate.didEndEditing = { field in save(field.text) }
    /// ```
    ///
    /// A delegate set before keeps being called. If you set `delegate` to another object later, the
    /// closures stop until you read this property again, which re-installs it in front of that one.
    ///
    /// > Important: Main actor; lives as long as the text field.
    public var closureDelegate: TextFieldDelegate {
      .attached(to: self) { TextFieldDelegate(textField: self) }
    }
  }
#endif
