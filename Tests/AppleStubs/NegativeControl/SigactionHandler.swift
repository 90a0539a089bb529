// Negative control for Scripts/typecheck-apple.sh: Glibc's name of the signal handler field in a
// Darwin branch. xnu's `struct sigaction` holds it in `union __sigaction_u __sigaction_u`.
// expected-error: value of type 'sigaction' has no member '__sigaction_handler'
#if canImport(Darwin)
  import Darwin

  func install() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigaction(SIGINT, &action, nil)
  }
#endif
