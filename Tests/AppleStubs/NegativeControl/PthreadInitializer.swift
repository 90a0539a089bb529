// Negative control for Scripts/typecheck-apple.sh: Glibc's spelling of a thread handle in a Darwin
// branch. On Darwin `pthread_t` is a non-optional pointer (libpthread: `typedef struct
// _opaque_pthread_t *pthread_t`) with no zero-argument initialiser; `pthread_create` fills a
// `pthread_t?`. ClosureKit's Platform/Locked.swift (now PThreads.swift) had exactly this line before issue 13.
// expected-error: missing argument for parameter #1 in call
#if canImport(Darwin)
  import Darwin

  func startThread() -> pthread_t {
    var thread = pthread_t()
    _ = pthread_create(&thread, nil, { _ in nil }, nil)
    return thread
  }
#endif
