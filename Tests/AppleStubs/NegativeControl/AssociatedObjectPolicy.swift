// Negative control for Scripts/typecheck-apple.sh: a wrong `objc_setAssociatedObject` argument.
// objc4's runtime.h declares the policy as `objc_AssociationPolicy`, an enum Swift imports as
// such, not an integer.
// expected-error: cannot convert value of type 'Int' to expected argument type 'objc_AssociationPolicy'
#if canImport(ObjectiveC)
  import ObjectiveC

  final class Box {}

  func attach(_ box: Box, to object: AnyObject, key: UnsafeRawPointer) {
    objc_setAssociatedObject(object, key, box, 0o1401)
  }
#endif
