// Negative control for Scripts/typecheck-apple.sh: Glibc's width of terminal flags in a Darwin
// branch. xnu's `tcflag_t` is `unsigned long` (`UInt`), Glibc's `unsigned int` (`UInt32`).
// expected-error: cannot convert value of type 'UInt32' to expected argument type 'UInt'
#if canImport(Darwin)
  import Darwin

  func disableEcho(_ settings: inout termios) {
    settings.c_lflag &= ~UInt32(ECHO)
  }
#endif
