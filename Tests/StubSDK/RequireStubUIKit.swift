// Type-checked with the layer by Scripts/typecheck-uikit.sh: everything in ClosureKitUIKit is inside
// `#if canImport(UIKit)`, so if the stub UIKit were not found the layer would compile to nothing
// and "pass". This file makes that case an error.
#if !canImport(UIKit) || !canImport(ObjectiveC)
  #error("the stub UIKit/ObjectiveC modules were not found: the type-check would check nothing")
#endif
