import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Byte-at-a-time input and unbuffered output on file descriptors, for one terminal session.
///
/// Input is read one byte per `read` so that nothing after the answer is consumed: the next
/// dialog, or the program, reads the rest. A closed descriptor, an error or the end of input all
/// read as ``Input/end``; a failed write marks the output broken and later writes are skipped.
/// Never raises SIGPIPE: the session thread blocks it (see ``TerminalPresenter``).
final class TerminalIO: Sendable {
  /// One read.
  enum Input: Equatable {
    /// A byte arrived.
    case byte(UInt8)
    /// End of input, an error, or the session was cancelled.
    case end
    /// Nothing arrived before the timeout.
    case timeout
  }

  let input: Int32
  let output: Int32
  /// A pipe whose read end wakes `poll` when the session is cancelled; `nil` if it could not
  /// be created (then `poll` wakes every 100 ms to check the flag).
  private let wake: (read: Int32, write: Int32)?
  private let cancelled = Atomic(false)
  private let outputBroken = Atomic(false)

  init(input: Int32, output: Int32) {
    self.input = input
    self.output = output
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      wake = (fds[0], fds[1])
    } else {
      wake = nil
    }
  }

  deinit {
    if let wake {
      close(wake.read)
      close(wake.write)
    }
  }

  /// Ends the session: the pending and every later read returns ``Input/end``. Any thread.
  func cancel() {
    cancelled.store(true, ordering: .sequentiallyConsistent)
    if let wake {
      let byte: [UInt8] = [1]
      _ = byte.withUnsafeBytes { writeBytes(wake.write, $0.baseAddress!, 1) }
    }
  }

  var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

  /// Reads one byte, waiting at most `timeout` milliseconds (`-1`: no limit).
  func readByte(timeout: Int32 = -1) -> Input {
    guard input >= 0 else { return .end }
    while true {
      if isCancelled { return .end }
      var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
      if let wake { fds.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)) }
      let step: Int32 = wake == nil ? (timeout < 0 ? 100 : min(timeout, 100)) : timeout
      let ready = poll(&fds, nfds_t(fds.count), step)
      if ready < 0 {
        if errno == EINTR { continue }
        return .end
      }
      if isCancelled { return .end }
      if ready == 0 {
        if timeout >= 0 && (wake != nil || step == timeout) { return .timeout }
        continue
      }
      if fds[0].revents & Int16(POLLNVAL) != 0 { return .end }
      var byte: UInt8 = 0
      let count = read(input, &byte, 1)
      if count == 1 { return .byte(byte) }
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      return .end
    }
  }

  /// Reads one line in canonical fashion; `nil` at the end of input with nothing read. A last
  /// line without a newline is returned as a line.
  func readLine() -> String? {
    var bytes: [UInt8] = []
    while true {
      switch readByte() {
      case .byte(UInt8(ascii: "\n")):
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
      case .byte(let byte):
        bytes.append(byte)
      case .end, .timeout:
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      }
    }
  }

  /// Writes all of `text`; after a failure stops writing for the rest of the session.
  func emit(_ text: String) {
    guard !outputBroken.load(ordering: .relaxed) else { return }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        writeBytes(output, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        outputBroken.store(true, ordering: .relaxed)
        return
      }
    }
  }
}

extension TerminalIO {
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

/// `write(2)`, under a name the methods above do not shadow.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
