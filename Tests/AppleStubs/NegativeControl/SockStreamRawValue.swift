// Negative control for Scripts/typecheck-apple.sh: Glibc's enum-typed socket type in a Darwin
// branch. xnu's SOCK_STREAM is a plain `#define SOCK_STREAM 1`, an `Int32` in Swift.
// expected-error: value of type 'Int32' has no member 'rawValue'
#if canImport(Darwin)
  import Darwin

  func makeSocket() -> Int32 {
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  }
#endif
