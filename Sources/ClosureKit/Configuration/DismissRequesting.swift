import Synchronization

/// An object that can ask whoever presented it to dismiss it.
///
/// The presenter, not the presented object, decides how a screen (or a sheet, a dialog, a child
/// task's window) is closed: it registers a closure with ``onDismissRequest(_:)`` or
/// ``onDismissRequest(owner:_:)``, and the presented object calls ``requestDismiss()`` when it
/// is done. The closure is stored on the presented object (as an associated value, see
/// ``AssociatedKey``) and released with it.
///
/// ```swift
/// final class EditScreen: DismissRequesting {
///   func saveTapped() { requestDismiss() }
/// }
///
/// let editor = EditScreen()
/// editor.onDismissRequest(owner: self) { presenter, editor in presenter.close(editor) }
/// editor.saveTapped()   // calls presenter.close(editor)
/// ```
///
/// Conform with an empty extension. On Apple platforms every `NSObject` subclass already conforms.
public protocol DismissRequesting: AnyObject {}

/// The closure registered for dismiss requests, stored on the presented object.
///
/// `@unchecked Sendable`: immutable; its one subclass adds only a `let` of a `@Sendable` closure.
class DismissRequestHandler: @unchecked Sendable {
  /// Identifies this registration for its token: unique in the process, never reused (a 64-bit
  /// count), so a token never mistakes a later closure for its own, even at a reused address.
  let id = nextDismissRequestID.wrappingAdd(1, ordering: .relaxed).newValue

  /// Runs the presenter's closure with the presented object; `false` if its owner is gone.
  func run(_ presented: AnyObject) -> Bool {
    false
  }
}

/// A ``DismissRequestHandler`` for presented objects of type `Presented`.
///
/// `@unchecked Sendable`: as its superclass; the only property is a `let` `@Sendable` closure.
final class TypedDismissRequestHandler<Presented: AnyObject>: DismissRequestHandler, @unchecked Sendable {
  /// The presenter's closure.
  let handler: @Sendable (Presented) -> Void

  init(_ handler: @escaping @Sendable (Presented) -> Void) {
    self.handler = handler
  }

  override func run(_ presented: AnyObject) -> Bool {
    handler(Self.cast(presented))
    return true
  }

  /// The presented object as its type. Checked: a handler is stored only on an object of its
  /// `Presented` type (``DismissRequesting/onDismissRequest(_:)`` registers it on `self`), and
  /// ``DismissRequesting/requestDismiss()`` hands it that object; anything else traps.
  static func cast(_ presented: AnyObject) -> Presented {
    guard let presented = presented as? Presented else {
      failPrecondition("DismissRequesting: a dismiss request handler run with an object of another type")
    }
    return presented
  }
}

/// A ``DismissRequestHandler`` bound to an owner, for presented objects of type `Presented`.
///
/// `@unchecked Sendable`: `owner` is a weak reference to a `Sendable` object, written only in init.
final class OwnedDismissRequestHandler<Owner: AnyObject & Sendable, Presented: AnyObject>: DismissRequestHandler,
  @unchecked Sendable
{
  /// The presenter; `nil` once it is deallocated.
  weak var owner: Owner?
  /// The presenter's closure.
  let handler: @Sendable (Owner, Presented) -> Void

  init(owner: Owner, _ handler: @escaping @Sendable (Owner, Presented) -> Void) {
    self.owner = owner
    self.handler = handler
  }

  override func run(_ presented: AnyObject) -> Bool {
    guard let owner else { return false }
    handler(owner, TypedDismissRequestHandler<Presented>.cast(presented))
    return true
  }
}

/// The key under which a presented object stores its ``DismissRequestHandler``.
let dismissRequestKey = AssociatedKey<DismissRequestHandler>()

/// The last ``DismissRequestHandler/id`` handed out.
let nextDismissRequestID = Atomic<UInt64>(0)

/// A weak reference to the presented object, for the token that removes its handler.
///
/// `@unchecked Sendable`: the reference is only loaded (weak loads are atomic) and handed to the
/// association table as an identity; no member of the object is touched through it.
final class WeakPresented: @unchecked Sendable {
  /// The presented object, `nil` once it is deallocated.
  weak var object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}

extension DismissRequesting {
  /// Registers the closure that answers this object's dismiss requests, replacing any earlier one.
  ///
  /// ```swift
  /// let sheet = ShareSheet()
  /// sheet.onDismissRequest { sheet in print("closing", sheet) }
  /// ```
  ///
  /// - Parameter handler: Receives this object each time it calls ``requestDismiss()``.
  /// - Returns: A token that removes the closure; dropping it does not.
  ///
  /// > Important: The closure is stored on this object and released when the object is
  /// > deallocated (on Linux: see ``AssociatedKey`` for when), when the token is cancelled, or when
  /// > another closure replaces it; a token you keep does not keep it alive. Do not capture this
  /// > object in it: it is passed in.
  @discardableResult
  public func onDismissRequest(_ handler: @escaping @Sendable (Self) -> Void) -> HandlerSubscription {
    register(TypedDismissRequestHandler<Self>(handler))
  }

  /// Registers the closure that answers this object's dismiss requests, bound to `owner`.
  ///
  /// ```swift
  /// let editor = EditScreen()
  /// editor.onDismissRequest(owner: self) { presenter, editor in presenter.close(editor) }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: The presenter, held weakly and passed back strong; once it is deallocated, dismiss
  ///     requests go unanswered.
  ///   - handler: Receives the owner and this object each time it calls ``requestDismiss()``.
  /// - Returns: A token that removes the closure; dropping it does not.
  ///
  /// > Important: Replaces any earlier closure. The closure is released with this object, when
  /// > the token is cancelled, when it is replaced, or at the first ``requestDismiss()`` after the
  /// > owner died; a token you keep does not keep it alive.
  @discardableResult
  public func onDismissRequest<Owner: AnyObject & Sendable>(
    owner: Owner,
    _ handler: @escaping @Sendable (Owner, Self) -> Void
  ) -> HandlerSubscription {
    register(OwnedDismissRequestHandler<Owner, Self>(owner: owner, handler))
  }

  /// Asks the presenter to dismiss this object, by running the closure it registered.
  ///
  /// ```swift
  /// final class EditScreen: DismissRequesting {
  ///   func cancelTapped() { requestDismiss() }
  /// }
  /// ```
  ///
  /// - Returns: `true` if a closure ran; `false` if none is registered or its owner is gone.
  ///
  /// > Important: The closure runs synchronously on the calling thread, outside any lock, so it
  /// > may register a new closure or request again. Each call runs it again: it is not one-shot.
  @discardableResult
  public func requestDismiss() -> Bool {
    guard let registered = dismissRequestKey.value(for: self) else { return false }
    if registered.run(self) { return true }
    // The owner is gone: release the closure now, unless it was replaced meanwhile.
    dismissRequestKey.update(for: self) { current in current === registered ? nil : current }
    return false
  }

  /// Stores `registered` on this object; the token removes it if it is still the current one.
  ///
  /// The token holds this object weakly and the closure not at all, only its ``id``: it must not
  /// keep the closure (and what it captured) alive once the closure is replaced, released with
  /// this object, or released after its owner died.
  private func register(_ registered: DismissRequestHandler) -> HandlerSubscription {
    dismissRequestKey.setValue(registered, for: self)
    let presented = WeakPresented(self)
    let id = registered.id
    return HandlerSubscription {
      guard let object = presented.object else { return }
      dismissRequestKey.update(for: object) { current in current?.id == id ? nil : current }
    }
  }
}
