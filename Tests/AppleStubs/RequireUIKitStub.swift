// Type-checked with ClosureKitUIKit by Scripts/typecheck-apple.sh: the whole layer is inside
// `#if canImport(UIKit)`, so without Tests/StubSDK's UIKit it would compile to nothing and "pass".
#if !canImport(UIKit)
  #error("the stub UIKit module was not found: ClosureKitUIKit would compile to nothing")
#endif
