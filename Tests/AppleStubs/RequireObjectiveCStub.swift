// Type-checked by Scripts/typecheck-apple.sh with the modules whose `#if canImport(ObjectiveC)`
// code it checks: without the stub ObjectiveC module that code would silently drop out.
#if !canImport(ObjectiveC)
  #error("the stub ObjectiveC module was not found: the Objective-C branches would not be selected")
#endif
