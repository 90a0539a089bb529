import ClosureKit
import ClosureKitFoundation
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A pipe whose write end the test fills and closes, or whose read end the test drains.
struct TestPipe {
  let readEnd: Int32
  let writeEnd: Int32

  init() {
    var fds: [Int32] = [-1, -1]
    precondition(pipe(&fds) == 0, "pipe failed")
    readEnd = fds[0]
    writeEnd = fds[1]
  }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { posixWrite(writeEnd, $0.baseAddress!, $0.count) }
    precondition(written == bytes.count, "short write to a test pipe")
  }

  func closeWrite() { close(writeEnd) }
  func closeRead() { close(readEnd) }

  /// Reads until the end of input (the write end must be closed).
  func readAll() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { posixRead(readEnd, $0.baseAddress!, $0.count) }
      if count <= 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Presents `alert` on a terminal presenter reading `input` from a pipe, and returns the result
/// with everything the presenter wrote.
func presentFromPipe(
  _ present: (TerminalPresenter) async throws -> DialogResult,
  input: String,
  environment: [String: String] = ["TERM": "xterm-256color"]
) async throws -> (DialogResult, String) {
  let inputPipe = TestPipe()
  let outputPipe = TestPipe()
  inputPipe.send(input)
  inputPipe.closeWrite()
  let presenter = TerminalPresenter(input: inputPipe.readEnd, output: outputPipe.writeEnd, environment: environment)
  let result = try await present(presenter)
  outputPipe.closeWrite()
  let output = outputPipe.readAll()
  inputPipe.closeRead()
  outputPipe.closeRead()
  return (result, output)
}

/// "Sign in": a Name field, a secure Password field, a Cancel button and a "Sign in" button whose
/// action is `signIn`.
func makeSignInAlert(signIn: (@Sendable (DialogResult) -> Void)? = nil) -> AlertDialog {
  let login = AlertDialog(title: "Sign in")
  login.addTextField(placeholder: "Name")
  login.addTextField(placeholder: "Password", isSecure: true)
  login.addButton("Cancel", role: .cancel)
  login.addButton("Sign in", action: signIn)
  return login
}

/// Presents a new ``makeAlert(_:)`` dialog on a terminal presenter reading `input` from a pipe:
/// the log of the closures that ran, the result and everything the presenter wrote.
func answerStandardAlertFromPipe(_ input: String) async throws -> (Log, DialogResult, String) {
  let ran = Log()
  let alert = makeAlert(ran)
  let (result, output) = try await presentFromPipe({ try await alert.present(on: $0) }, input: input)
  return (ran, result, output)
}

/// A pseudo-terminal opened with `openpty`: the presenter uses the secondary side as its
/// terminal, the test types on the primary side and reads what the presenter wrote.
final class PseudoTerminal: Sendable {
  let primary: Int32
  let secondary: Int32
  /// Everything read from the primary side, and how far `read(until:)` has looked.
  private let state = Locked<(transcript: [UInt8], mark: Int)>(([], 0))
  private let primaryOpen = Atomic(true)

  init(columns: UInt16 = 100) {
    var primary: Int32 = -1
    var secondary: Int32 = -1
    var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    precondition(openpty(&primary, &secondary, nil, nil, &size) == 0, "openpty failed: \(errno)")
    self.primary = primary
    self.secondary = secondary
  }

  func presenter(environment: [String: String] = ["TERM": "xterm-256color"]) -> TerminalPresenter {
    TerminalPresenter(input: secondary, output: secondary, environment: environment)
  }

  /// Types `text` on the keyboard.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { posixWrite(primary, $0.baseAddress!, $0.count) }
  }

  /// Reads what the presenter writes until `marker` appears after the last marker found, or the
  /// deadline passes. The blocking reads run on a thread of their own: blocking a Swift
  /// concurrency thread could starve the very task that starts the dialog.
  func read(until marker: String, timeout: Duration = .seconds(30)) async -> Bool {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: self.readBlocking(until: marker, timeout: timeout)) }.start()
    }
  }

  private func readBlocking(until marker: String, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    let needle = Array(marker.utf8)
    while true {
      let found = state.withLock { state -> Bool in
        guard let range = state.transcript[state.mark...].firstRange(of: needle) else { return false }
        state.mark = range.upperBound
        return true
      }
      if found { return true }
      let remaining = deadline - ContinuousClock.now
      if remaining <= .zero { return false }
      var fds = [pollfd(fd: primary, events: Int16(POLLIN), revents: 0)]
      let milliseconds = Int32(
        remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
      guard poll(&fds, 1, max(milliseconds, 1)) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { posixRead(primary, $0.baseAddress!, $0.count) }
      if count <= 0 { return false }
      state.withLock { $0.transcript.append(contentsOf: buffer[0..<count]) }
    }
  }

  /// Everything read so far.
  var transcript: String {
    state.withLock { String(decoding: $0.transcript, as: UTF8.self) }
  }

  /// The secondary side's current settings.
  func settings() -> termios {
    var settings = termios()
    tcgetattr(secondary, &settings)
    return settings
  }

  /// Closes the primary side: the terminal hangs up.
  func hangUp() {
    if primaryOpen.exchange(false, ordering: .sequentiallyConsistent) { close(primary) }
  }

  deinit {
    if primaryOpen.load(ordering: .sequentiallyConsistent) { close(primary) }
    close(secondary)
  }
}

/// The parts of the settings a dialog changes.
func essentials(_ settings: termios) -> [UInt] {
  var settings = settings
  let cc = withUnsafeBytes(of: &settings.c_cc) { Array($0) }
  return [
    UInt(settings.c_lflag), UInt(settings.c_iflag), UInt(settings.c_oflag), UInt(cc[Int(VMIN)]), UInt(cc[Int(VTIME)]),
  ]
}

/// An alert with Cancel (0), OK (1) and Delete (2, destructive), recording which closure ran.
func makeAlert(_ ran: Log) -> AlertDialog {
  let alert = AlertDialog(title: "Save changes?", message: "Your edits are not saved.")
  alert.addButton("Cancel", role: .cancel) { _ in ran.append("Cancel") }
  alert.addButton("OK") { _ in ran.append("OK") }
  alert.addButton("Delete", role: .destructive) { _ in ran.append("Delete") }
  return alert
}

/// `read(2)` under a name no member shadows.
func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

/// `write(2)` under a name no member shadows.
func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// A thread-safe list of strings that closures append to.
final class Log: Sendable {
  private let storage = Locked<[String]>([])
  var values: [String] { storage.withLock { $0 } }
  func append(_ value: String) { storage.withLock { $0.append(value) } }
  func set(_ values: [String]) { storage.withLock { $0 = values } }
}
