import Synchronization

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
    wake = TerminalCalls.makePipe()
  }

  deinit {
    if let wake {
      TerminalCalls.close(wake.read)
      TerminalCalls.close(wake.write)
    }
  }

  /// Ends the session: the pending and every later read returns ``Input/end``. Any thread.
  func cancel() {
    cancelled.store(true, ordering: .sequentiallyConsistent)
    if let wake {
      let byte: [UInt8] = [1]
      _ = byte.withUnsafeBytes { TerminalCalls.write(wake.write, $0.baseAddress!, 1) }
    }
  }

  var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

  /// Reads one byte, waiting at most `timeout` milliseconds (`-1`: no limit).
  func readByte(timeout: Int32 = -1) -> Input {
    guard input >= 0 else { return .end }
    while true {
      if isCancelled { return .end }
      let step: Int32 = wake == nil ? (timeout < 0 ? 100 : min(timeout, 100)) : timeout
      let ready = TerminalCalls.poll(input, wake: wake?.read, timeout: step)
      if ready == .interrupted { continue }
      if ready == .failed { return .end }
      if isCancelled { return .end }
      if ready == .timeout {
        if timeout >= 0 && (wake != nil || step == timeout) { return .timeout }
        continue
      }
      if ready == .invalid { return .end }
      switch TerminalCalls.readByte(input) {
      case .byte(let byte): return .byte(byte)
      case .retry: continue
      case .end: return .end
      }
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
        TerminalCalls.write(output, buffer.baseAddress! + offset, buffer.count - offset)
      }
      switch written {
      case .wrote(let count):
        offset += count
      case .interrupted:
        continue
      case .failed:
        outputBroken.store(true, ordering: .relaxed)
        return
      }
    }
  }
}
