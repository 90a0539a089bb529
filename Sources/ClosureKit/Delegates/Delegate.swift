/// One closure slot that stands for one method of a delegate protocol.
///
/// An adapter keeps one `Delegate` per delegate method. The delegator asks ``isSet`` (the Swift
/// form of `respondsToSelector:`) and keeps its own default behaviour when the slot is empty.
///
/// ```swift
/// let shouldRedirect = Delegate<URL, Bool>()
/// shouldRedirect.delegate(on: controller) { controller, url in controller.allows(url) }
/// let follow = shouldRedirect(url) ?? true   // nil: unset or owner gone, use the default
/// ```
///
/// > Important: Every method is safe from any thread. The closure is called outside the slot's
/// > lock, on the calling thread, so it may set or clear this slot. After ``clear()`` returns no
/// > call of the old closure starts.
public final class Delegate<Input, Output>: Sendable {
  /// The stored closure, already bound to its weak owner; `nil` when unset.
  @usableFromInline let slot = Locked<Slot?>(nil)

  /// A closure and, if it was set with `on:`, a check that its owner is still alive. A class, so
  /// that reading the slot retains one object.
  @usableFromInline
  final class Slot: Sendable {
    /// Returns `nil` when the owner is gone, else the closure's output.
    @usableFromInline let call: @Sendable (Input) -> Output?
    /// Whether the owner (if any) is alive.
    @usableFromInline let isAlive: @Sendable () -> Bool

    init(call: @escaping @Sendable (Input) -> Output?, isAlive: @escaping @Sendable () -> Bool) {
      self.call = call
      self.isAlive = isAlive
    }
  }

  /// Creates an empty slot.
  ///
  /// ```swift
  /// let willClose = Delegate<Document, Void>()
  /// ```
  public init() {}

  /// Sets the closure, bound to `owner`: `owner` is held weakly and passed back strong, so the
  /// closure needs no `[weak self]`. Replaces any closure set before.
  ///
  /// ```swift
  /// shouldSave.delegate(on: editor) { editor, document in editor.isDirty(document) }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: Held weakly; once it is deallocated the slot answers `nil` and ``isSet`` is false.
  ///   - handler: Receives the owner and the input; returns the delegate method's answer.
  ///
  /// > Important: The closure runs on the thread that calls the slot, outside any lock.
  public func delegate<Owner: AnyObject & Sendable>(
    on owner: Owner,
    _ handler: @escaping @Sendable (Owner, Input) -> Output
  ) {
    let box = WeakBox(owner)
    let slot = Slot(
      call: { input in
        guard let owner = box.object else { return nil }
        return handler(owner, input)
      },
      isAlive: { box.object != nil }
    )
    withExtendedLifetime(replace(with: slot)) {}  // the old closure is released outside the lock
  }

  /// Sets the closure, with no owner. Replaces any closure set before.
  ///
  /// ```swift
  /// shouldSave.delegate { document in document.isDirty }
  /// ```
  ///
  /// - Parameter handler: Receives the input; returns the delegate method's answer.
  ///
  /// > Important: The closure runs on the thread that calls the slot, outside any lock. It is
  /// > released by ``clear()``, by setting another closure, or with the slot.
  public func delegate(_ handler: @escaping @Sendable (Input) -> Output) {
    let slot = Slot(call: { handler($0) }, isAlive: { true })
    withExtendedLifetime(replace(with: slot)) {}  // the old closure is released outside the lock
  }

  /// Calls the closure.
  ///
  /// ```swift
  /// let answer = shouldSave(document) ?? true   // the default when unset
  /// ```
  ///
  /// - Parameter input: The delegate method's arguments.
  /// - Returns: The closure's output, or `nil` when the slot is unset or its owner is gone.
  ///
  /// > Important: Runs the closure synchronously on the calling thread, outside the lock; when the
  /// > owner is found deallocated the slot is cleared, releasing the closure.
  @inlinable @discardableResult
  public func callAsFunction(_ input: Input) -> Output? {
    guard let current = slot.withLock({ $0 }) else { return nil }
    if let output = current.call(input) { return output }
    if !current.isAlive() { clearIfOwnerGone(current) }
    return nil
  }

  /// Whether a closure is set and its owner, if any, is alive.
  ///
  /// ```swift
  /// if !shouldSave.isSet { useDefaultSavePolicy() }
  /// ```
  public var isSet: Bool {
    guard let current = slot.withLock({ $0 }) else { return false }
    if current.isAlive() { return true }
    clearIfOwnerGone(current)
    return false
  }

  /// Removes the closure and releases what it captured.
  ///
  /// ```swift
  /// shouldSave.clear()
  /// ```
  ///
  /// > Important: After this returns no call of the old closure starts; a call already running
  /// > on another thread may finish.
  public func clear() {
    withExtendedLifetime(replace(with: nil)) {}  // released outside the lock
  }

  /// Stores `new` and returns the slot it replaces, for the caller to release after unlocking:
  /// the old closure's captures may be the last references to objects whose deinit uses this slot.
  private func replace(with new: Slot?) -> Slot? {
    slot.withLock { slot in
      defer { slot = new }
      return slot
    }
  }

  /// Clears the slot if it still holds `dead`, a slot whose owner the caller found deallocated
  /// (not a closure set since by another thread). Compares identities: asking `isAlive` here would
  /// load the weak owner under the lock, and that temporary could be the owner's last reference.
  @usableFromInline
  func clearIfOwnerGone(_ dead: Slot) {
    let old = slot.withLock { slot -> Slot? in
      guard slot === dead else { return nil }
      defer { slot = nil }
      return slot
    }
    withExtendedLifetime(old) {}
  }
}

extension Delegate where Input == Void {
  /// Calls the closure of a slot whose delegate method takes no arguments, as `slot()` instead of
  /// `slot(())` (as ``Event/send()`` does for `Event<Void>`).
  ///
  /// ```swift
  /// let shouldClose = Delegate<Void, Bool>()
  /// shouldClose.delegate { true }
  /// let close = shouldClose() ?? false   // nil: unset or owner gone, use the default
  /// ```
  ///
  /// - Returns: The closure's output, or `nil` when the slot is unset or its owner is gone.
  ///
  /// > Important: The same rules as ``callAsFunction(_:)``: the closure runs synchronously on the
  /// > calling thread, outside the lock.
  @inlinable @discardableResult
  public func callAsFunction() -> Output? {
    callAsFunction(())
  }
}

/// A weak reference that can be captured by a `@Sendable` closure.
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
  /// The referenced object; `nil` once deallocated.
  weak let object: Object?

  init(_ object: Object) {
    self.object = object
  }
}
