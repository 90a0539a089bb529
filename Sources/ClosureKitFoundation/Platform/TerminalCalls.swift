#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The operating-system calls of the terminal presenter, apart from the settings and signal
/// handling in ``TerminalModeGuard``: descriptors, `poll`, `read`, `write`, and the calling
/// thread's signal mask.
enum TerminalCalls {
  /// What ``poll(_:wake:timeout:)`` saw.
  enum Poll: Equatable {
    /// The input (or the wake pipe) is readable, or at its end.
    case ready
    /// The input is not an open descriptor.
    case invalid
    /// Nothing arrived before the timeout.
    case timeout
    /// A signal interrupted the wait; wait again.
    case interrupted
    /// `poll` failed.
    case failed
  }

  /// What ``readByte(_:)`` read.
  enum Read: Equatable {
    /// One byte.
    case byte(UInt8)
    /// A signal interrupted the read, or no byte was ready; try again.
    case retry
    /// The end of input or an error.
    case end
  }

  /// What ``write(_:_:_:)`` did.
  enum Write: Equatable {
    /// Wrote this many bytes (at least one).
    case wrote(Int)
    /// A signal interrupted the write; write again.
    case interrupted
    /// The write failed or wrote nothing.
    case failed
  }

  /// A pipe, or `nil` if it cannot be created. Both ends are close-on-exec, so a child process
  /// (an exit test, a program the caller runs) never inherits them.
  static func makePipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return nil }
    // `pipe2(O_CLOEXEC)` does not exist on Darwin; the flag is set right after, as there.
    for descriptor in fds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
  }

  /// Closes `descriptor`.
  static func close(_ descriptor: Int32) {
    _ = systemClose(descriptor)
  }

  /// Waits up to `timeout` milliseconds (`-1`: no limit) until `input`, or `wake` if given, is
  /// readable.
  static func poll(_ input: Int32, wake: Int32?, timeout: Int32) -> Poll {
    var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
    if let wake { fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
    let ready = systemPoll(&fds, nfds_t(fds.count), timeout)
    if ready < 0 { return errno == EINTR ? .interrupted : .failed }
    if ready == 0 { return .timeout }
    return fds[0].revents & Int16(POLLNVAL) != 0 ? .invalid : .ready
  }

  /// Reads one byte from `descriptor`.
  static func readByte(_ descriptor: Int32) -> Read {
    var byte: UInt8 = 0
    let count = read(descriptor, &byte, 1)
    if count == 1 { return .byte(byte) }
    if count < 0 && (errno == EINTR || errno == EAGAIN) { return .retry }
    return .end
  }

  /// Writes up to `count` bytes from `bytes` to `descriptor`.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Write {
    let written = systemWrite(descriptor, bytes, count)
    if written > 0 { return .wrote(written) }
    return written < 0 && errno == EINTR ? .interrupted : .failed
  }

  /// Whether `descriptor` is a terminal (`isatty`).
  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// The width in columns of the terminal `descriptor` refers to; `nil` if it cannot be read.
  static func columns(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Flushes every C standard-I/O output stream (`fflush(NULL)`), so what the program printed
  /// with `print` comes before what a session writes to the descriptor directly.
  static func flushStandardStreams() {
    fflush(nil)
  }

  /// Blocks SIGPIPE on the calling thread, so a write to a closed pipe fails with `EPIPE`
  /// instead of ending the process.
  static func blockBrokenPipeSignalOnCurrentThread() {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
  }
}

/// `close(2)`, under a name ``TerminalCalls/close(_:)`` does not shadow.
private func systemClose(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}

/// `poll(2)`, under a name ``TerminalCalls/poll(_:wake:timeout:)`` does not shadow.
private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32) -> Int32 {
  poll(fds, count, timeout)
}

/// `write(2)`, under a name ``TerminalCalls/write(_:_:_:)`` does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
