#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The demo's operating-system calls: every one is here.
enum Console {
  /// Whether standard input is a terminal (so dialogs are drawn) rather than a pipe or a file.
  static var standardInputIsTerminal: Bool {
    isatty(STDIN_FILENO) == 1
  }

  /// Whether standard output is a terminal: only then does the demo redraw a line with `\r`.
  static var standardOutputIsTerminal: Bool {
    isatty(STDOUT_FILENO) == 1
  }

  /// Flushes standard output now: it is buffered until a newline or, in a pipe, longer.
  static func flushOutput() {
    fflush(nil)
  }

  /// Ends the process with `status`, flushing standard output.
  static func exit(_ status: Int32) -> Never {
    systemExit(status)
  }
}

/// `exit(3)`, under a name ``Console/exit(_:)`` does not shadow.
private func systemExit(_ status: Int32) -> Never {
  exit(status)
}
