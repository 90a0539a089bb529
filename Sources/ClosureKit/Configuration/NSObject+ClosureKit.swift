#if canImport(ObjectiveC)
  public import ObjectiveC

  /// Every Objective-C object can be configured in one expression and can request its dismissal,
  /// as BlocksKit's categories on `NSObject` allowed.
  extension NSObject: Configurable, DismissRequesting {}
#endif
