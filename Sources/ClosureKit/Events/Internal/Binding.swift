/// Wraps a handler that takes an owner into one that holds the owner weakly and does nothing once
/// the owner is gone: the owner binding of every `owner:` variant.
@inlinable
func bindingOwner<Owner: AnyObject & Sendable, Argument>(
  _ owner: Owner,
  _ handler: @escaping @Sendable (Owner, Argument) -> Void
) -> @Sendable (Argument) -> Void {
  { [weak owner] argument in
    guard let owner else { return }
    handler(owner, argument)
  }
}
