#if canImport(UIKit)
  import ObjectiveC

  /// What every closure delegate of this layer shares, kept in one place: the delegator's previous
  /// delegate (held weakly), installing the proxy in front of it, `responds(to:)` answering yes
  /// only for a set closure or what the previous delegate implements, and forwarding the rest.
  ///
  /// ``ClosureDelegateProxy``, the base of every closure delegate, owns one and calls it from its
  /// `responds(to:)` and `forwardingTarget(for:)` overrides and when a closure is set.
  @MainActor
  final class DelegateForwarding {
    /// The delegate the delegator had before the proxy; held weakly.
    private(set) weak var previous: (any NSObjectProtocol)?
    /// Reads the delegator's delegate property; `nil` when it has none or is gone.
    private let read: @MainActor () -> (any NSObjectProtocol)?
    /// Sets the delegator's delegate property; does nothing when the delegator is gone.
    private let write: @MainActor ((any NSObjectProtocol)?) -> Void

    /// - Parameters:
    ///   - read: Reads the delegate property of the delegator, which it must capture weakly.
    ///   - write: Sets it (casting to the delegate protocol); captures the delegator weakly.
    init(
      read: @escaping @MainActor () -> (any NSObjectProtocol)?,
      write: @escaping @MainActor ((any NSObjectProtocol)?) -> Void
    ) {
      self.read = read
      self.write = write
    }

    /// Makes `proxy` the delegator's delegate, keeping any other delegate as the previous one. The
    /// property is cleared first, because UIKit and WebKit cache `responds(to:)` answers when their
    /// delegate is set.
    func install(_ proxy: NSObject) {
      if let current = read(), current !== proxy { previous = current }
      write(nil)
      write(proxy)
    }

    /// Installs `proxy` unless it is the delegate already.
    func installIfReplaced(_ proxy: NSObject) {
      guard read() !== proxy else { return }
      install(proxy)
    }

    /// Sets `proxy` again if it is the delegate, so that the delegator asks `responds(to:)` afresh.
    func reinstall(_ proxy: NSObject) {
      guard read() === proxy else { return }
      install(proxy)
    }

    /// The answer to `responds(to:)`: for a closure method (`hasClosure` not `nil`), whether its
    /// closure is set or the previous delegate implements it; otherwise whether the proxy itself
    /// (`inherited`) or the previous delegate does.
    func responds(to selector: Selector, hasClosure: Bool?, inherited: () -> Bool) -> Bool {
      let forwarded = previous?.responds(to: selector) ?? false
      guard let hasClosure else { return inherited() || forwarded }
      return hasClosure || forwarded
    }

    /// The previous delegate, for `forwardingTarget(for:)`.
    var forwardingTarget: ForwardingTarget { ForwardingTarget(previous) }
  }
#endif
