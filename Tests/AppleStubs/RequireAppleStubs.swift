// Type-checked with every module by Scripts/typecheck-apple.sh: if the stub Darwin module were not
// found, every `#if canImport(Darwin)` would select the Linux branch and the check would "pass"
// having checked none of the Apple code. This file makes that case an error.
#if !canImport(Darwin)
  #error("the stub Darwin module was not found: the Apple branches would not be selected")
#endif
