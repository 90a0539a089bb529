#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Changes a terminal's settings for the length of one call and puts them back on every exit
/// path: a normal return, and the signals that end a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT),
/// whose handler restores the settings, shows the cursor, then re-raises the signal under the
/// action that was installed before.
///
/// One terminal session runs at a time in a process (``TerminalPresenter`` serialises them), so
/// one static slot is enough; it is allocated before any handler is installed, so the handler
/// touches no lazily initialised state.
enum TerminalModeGuard {
  /// The signals whose default action ends the process.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// A change of the terminal's settings.
  enum Mode {
    /// Raw input: byte at a time, no echo, no signals from keys, no flow control, no CR/NL mapping.
    case raw
    /// Canonical input without echo, for secure text.
    case noEcho
  }

  /// Runs `body` with `mode` applied to the settings of `input`, then restores them.
  /// - Returns: `nil` if `input` is not a terminal or its settings cannot be changed; else the
  ///   body's result.
  static func with<Result>(
    input: Int32,
    output: Int32,
    mode: Mode,
    _ body: () -> Result
  ) -> Result? {
    var original = termios()
    guard tcgetattr(input, &original) == 0 else { return nil }
    var changed = original
    switch mode {
    case .raw: makeRaw(&changed)
    case .noEcho: changed.c_lflag &= ~tcflag_t(ECHO)
    }
    let slot = signalSlot
    slot.pointee = SignalSlot(isActive: 1, input: input, output: output, saved: original)
    for (position, signal) in signals.enumerated() {
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = { signal in restoreTerminalAndReraise(signal) }
      #else
        action.__sigaction_handler.sa_handler = { signal in restoreTerminalAndReraise(signal) }
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signal, &action, previousActions + position)
    }
    defer {
      tcsetattr(input, TCSANOW, &original)
      slot.pointee.isActive = 0
      for (position, signal) in signals.enumerated() {
        sigaction(signal, previousActions + position, nil)
      }
    }
    guard tcsetattr(input, TCSANOW, &changed) == 0 else { return nil }
    return body()
  }

  /// Turns `settings` into raw mode (Darwin's `tcflag_t` is `UInt`, Glibc's `UInt32`).
  static func makeRaw(_ settings: inout termios) {
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    settings.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
    withUnsafeMutableBytes(of: &settings.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
  }
}

/// What the signal handler needs: plain values only.
struct SignalSlot {
  /// 1 while a session has changed the settings.
  var isActive: Int32
  /// The terminal whose settings were changed.
  var input: Int32
  /// Where to write the escape that shows the cursor again.
  var output: Int32
  /// The settings to put back.
  var saved: termios
}

/// The address of process-wide storage that is allocated once and never freed.
///
/// `@unchecked Sendable`: the address never changes once made, and what it points to is read and
/// written only as the comments at each use say (under the guard's lock, or by a signal handler
/// after the guard published it). A wrapper rather than `nonisolated(unsafe)` on the pointer:
/// older Apple standard libraries declared unsafe pointers `Sendable`, which makes that attribute
/// a warning there.
struct ProcessWideStorage<Pointee>: @unchecked Sendable {
  let address: UnsafeMutablePointer<Pointee>
}

/// The slot, allocated once before any handler can run.
let signalSlotStorage: ProcessWideStorage<SignalSlot> = {
  let slot = UnsafeMutablePointer<SignalSlot>.allocate(capacity: 1)
  slot.initialize(to: SignalSlot(isActive: 0, input: -1, output: -1, saved: termios()))
  return ProcessWideStorage(address: slot)
}()

/// The slot's address.
var signalSlot: UnsafeMutablePointer<SignalSlot> { signalSlotStorage.address }

/// The actions installed before ours, one per entry of ``TerminalModeGuard/signals``.
let previousActionsStorage: ProcessWideStorage<sigaction> = {
  let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: TerminalModeGuard.signals.count)
  actions.initialize(repeating: sigaction(), count: TerminalModeGuard.signals.count)
  return ProcessWideStorage(address: actions)
}()

/// The first previous action's address.
var previousActions: UnsafeMutablePointer<sigaction> { previousActionsStorage.address }

/// The signal handler: async-signal-safe calls only (tcsetattr, write, sigaction, raise).
private func restoreTerminalAndReraise(_ signal: Int32) {
  let slot = signalSlot
  if slot.pointee.isActive != 0 {
    slot.pointee.isActive = 0
    _ = withUnsafeMutablePointer(to: &slot.pointee.saved) { tcsetattr(slot.pointee.input, TCSANOW, $0) }
    let showCursor: StaticString = "\u{1b}[?25h\u{1b}[0m\r\n"
    _ = write(slot.pointee.output, showCursor.utf8Start, showCursor.utf8CodeUnitCount)
  }
  let position: Int
  switch signal {
  case SIGINT: position = 0
  case SIGTERM: position = 1
  case SIGHUP: position = 2
  default: position = 3
  }
  sigaction(signal, previousActions + position, nil)
  raise(signal)
}
