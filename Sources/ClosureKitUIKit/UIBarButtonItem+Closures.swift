#if canImport(UIKit)
  public import UIKit

  extension UIBarButtonItem {
    /// Creates a titled item whose tap runs `action`.
    ///
    /// ```swift
    /// navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Save", style: .done) { _ in save() }
    /// ```
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - style: `.plain` (the default) or `.done`.
    ///   - action: Receives the item on each tap.
    ///
    /// > Important: Runs synchronously on the main actor. The closure lives as long as the item;
    /// > setting the item's `target` or `action` afterwards replaces it.
    public convenience init(
      title: String?,
      style: UIBarButtonItem.Style = .plain,
      action: @escaping @MainActor @Sendable (_ item: UIBarButtonItem) -> Void
    ) {
      let trampoline = BarButtonTrampoline(action)
      self.init(title: title, style: style, target: trampoline, action: BarButtonTrampoline.selector)
      trampoline.attach(to: self)
    }

    /// Creates an item with an image whose tap runs `action`.
    ///
    /// ```swift
    /// let shareButton = UIBarButtonItem(image: UIImage(systemName: "square.and.arrow.up")) { _ in share() }
    /// ```
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - style: `.plain` (the default) or `.done`.
    ///   - action: Receives the item on each tap.
    ///
    /// > Important: Runs synchronously on the main actor; the closure lives as long as the item.
    public convenience init(
      image: UIImage?,
      style: UIBarButtonItem.Style = .plain,
      action: @escaping @MainActor @Sendable (_ item: UIBarButtonItem) -> Void
    ) {
      let trampoline = BarButtonTrampoline(action)
      self.init(image: image, style: style, target: trampoline, action: BarButtonTrampoline.selector)
      trampoline.attach(to: self)
    }

    /// Creates a system item whose tap runs `action`.
    ///
    /// ```swift
    /// navigationItem.leftBarButtonItem = UIBarButtonItem(barButtonSystemItem: .cancel) { _ in close() }
    /// ```
    ///
    /// - Parameters:
    ///   - systemItem: The system item.
    ///   - action: Receives the item on each tap.
    ///
    /// > Important: Runs synchronously on the main actor; the closure lives as long as the item.
    public convenience init(
      barButtonSystemItem systemItem: UIBarButtonItem.SystemItem,
      action: @escaping @MainActor @Sendable (_ item: UIBarButtonItem) -> Void
    ) {
      let trampoline = BarButtonTrampoline(action)
      self.init(barButtonSystemItem: systemItem, target: trampoline, action: BarButtonTrampoline.selector)
      trampoline.attach(to: self)
    }
  }
#endif
