#if !canImport(Darwin)
  public import Foundation

  extension NotificationCenter {
    /// The notifications named `name`, as an asynchronous sequence (Apple's Foundation has this
    /// method; Foundation on Linux does not, so ClosureKit adds it there with Apple's signature,
    /// `object` included, so that code written against it compiles on both).
    ///
    /// ```swift
    /// for await note in NotificationCenter.default.notifications(named: .documentSaved) {
    ///   print("saved", note.object ?? "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The notification name.
    ///   - object: Only notifications posted with this object, or `nil` for any sender. `Sendable`,
    ///     as in Apple's declaration.
    /// - Returns: A sequence that observes from the moment it is created until its iteration ends.
    ///
    /// > Important: The observer is added at once, so posts before the first `next()` are kept;
    /// > notifications not yet taken are buffered without bound. The observer is removed when the
    /// > iteration ends (`break`, task cancellation) or the sequence is dropped.
    public func notifications(
      named name: Notification.Name,
      object: (any AnyObject & Sendable)? = nil
    ) -> Notifications {
      Notifications(center: self, name: name, object: object)
    }
  }
#endif
