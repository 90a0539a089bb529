/// Operations on every value ClosureKit has attached to an object.
///
/// ```swift
/// enum Keys {
///   static let note = AssociatedKey<String>()
///   static let parent = WeakAssociatedKey<Widget>()
/// }
/// let widget = Widget()
/// Keys.note.setValue("draft", for: widget)
/// Keys.parent.setValue(Widget(), for: widget)
/// AssociatedValues.removeAll(from: widget)
/// print(Keys.note.value(for: widget) == nil)   // prints "true"
/// ```
///
/// > Important: Thread-safe, like the keys.
public enum AssociatedValues {
  /// Detaches and releases every value attached to `object` through an ``AssociatedKey`` or a
  /// ``WeakAssociatedKey`` (BlocksKit's `bk_removeAllAssociatedObjects`), including those
  /// ClosureKit attached itself (a ``DismissRequesting`` object's dismiss-request closure).
  ///
  /// ```swift
  /// AssociatedValues.removeAll(from: widget)
  /// ```
  ///
  /// Values attached by other code are left alone: on Apple platforms this is not
  /// `objc_removeAssociatedObjects`, which also removes the associated objects of the system and
  /// of other libraries. `ClosureKitUIKit`'s control actions and gesture handlers are not
  /// associated values of this kind either: remove them with their tokens.
  ///
  /// - Parameter object: Any class instance.
  ///
  /// > Important: Safe from any thread. Each value is released before this returns, outside every
  /// > lock (its `deinit` may use associated values), unless another thread holds it right now. A
  /// > value set by another thread while this runs may stay.
  ///
  /// - Complexity: O(k), k being the number of keys ever set on `object`.
  public static func removeAll(from object: AnyObject) {
    AssociationStorage.removeAll(from: object)
  }
}
