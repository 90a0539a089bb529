/// The thread-safe, ordered handler list behind ``Event`` and ``ControlActions``: a
/// ``RegistryHost`` whose lock guards the registry alone.
///
/// Its state is a ``HandlerListState`` behind a ``Locked``; every change is a method of that state,
/// made under the lock, that returns what to release or call, and that happens after the lock is
/// dropped (through `withExtendedLifetime` or by calling the returned handlers). The operations
/// (registration, removal, the owner sweep, sends) are ``RegistryHost``'s, shared with `Observed`.
///
/// A send copies the entry array under the lock (one reference-count increment, no element copy),
/// then calls the handlers outside it. Removal leaves a hole that a later compaction closes, so add
/// and cancel are amortised O(1). Tokens hold the list strongly (it is small); the user-facing
/// source calls ``RegistryHost/close()`` from its deinit, which ends every handler.
///
/// `@unchecked Sendable`: its only state is `state`, a ``Locked``.
@usableFromInline
final class HandlerList<Payload: Sendable, Tag: Sendable>: HandlerListSource, RegistryHost, @unchecked Sendable {
  @usableFromInline let state = Locked(HandlerListState<Payload, Tag>())

  @inlinable
  func withRegistry<Result>(_ body: (inout HandlerListState<Payload, Tag>) -> Result) -> Result {
    state.withLock { state in
      return body(&state)
    }
  }

  @inlinable init() {
    // Checked casts: the closures are constants that only this init sets, on this very list.
    super.init(
      removeEnded: { source, nodes in (source as! HandlerList<Payload, Tag>).remove(nodes) },
      removeOneEnded: { source, node in (source as! HandlerList<Payload, Tag>).remove(node) }
    )
  }
}
