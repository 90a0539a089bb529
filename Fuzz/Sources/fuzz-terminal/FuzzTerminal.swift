import ClosureKit
import ClosureKitFoundation
import Dispatch
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's entry point: one dialog answered on `TerminalPresenter` by the input's keystrokes,
/// checked against the presenter's contract. A violated invariant traps (libFuzzer then saves the
/// input).
///
/// The first byte chooses the dialog and the mode: bit 0 a pseudo-terminal in raw mode (arrow keys,
/// escape sequences, line editing) or a pipe (one line per answer); bits 1–2 the number of buttons
/// less one; bits 3–4 the number of text fields (alert only, at most 2); bit 5 an action sheet;
/// bit 6 a cancel button first; bit 7 a validation that disables every button but cancel while a
/// field is empty. The rest is what the user types.
///
/// Built and run on Linux (`Scripts/fuzz-terminal.sh`); the pseudo-terminal comes from `openpty`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminal(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start, count > 0 else { return 0 }
  let shape = start[0]
  let keys = Array(UnsafeBufferPointer(start: start + 1, count: min(count - 1, maximumKeys)))
  let request = makeRequest(shape)
  let answer = shape & 1 == 1 ? answerOnPseudoTerminal(request, keys: keys) : answerFromPipe(request, keys: keys)
  check(answer, for: request)
  return 0
}

/// At most this many keystrokes go in: a terminal's input queue holds 4,095 bytes, and a writer
/// beyond that would wait for the session to read.
let maximumKeys = 1024

/// The dialog that `shape` describes.
func makeRequest(_ shape: UInt8) -> DialogRequest {
  let style: DialogRequest.Style = shape & 0x20 != 0 ? .actionSheet : .alert
  let buttonCount = 1 + Int(shape >> 1 & 3)
  let fieldCount = style == .alert ? min(Int(shape >> 3 & 3), 2) : 0
  let hasCancel = shape & 0x40 != 0
  let buttons = (0..<buttonCount).map { index in
    DialogButton(
      title: index == 0 && hasCancel ? "Cancel" : "Button \(index)",
      role: index == 0 && hasCancel ? .cancel : (index == 2 ? .destructive : .default)
    )
  }
  let fields = (0..<fieldCount).map { DialogTextField(placeholder: "Field \($0)", isSecure: $0 == 1) }
  var validation: (@Sendable ([String]) -> Bool)?
  if shape & 0x80 != 0 {
    validation = { values in values.allSatisfy { !$0.isEmpty } }
  }
  return DialogRequest(
    style: style, title: "Fuzz", message: "Choose", buttons: buttons, textFields: fields, validation: validation)
}

/// The presenter's contract: a chosen button is in range and enabled for the values returned, and
/// there is one value per text field.
func check(_ answer: DialogAnswer, for request: DialogRequest) {
  switch answer {
  case .button(let index, let values):
    precondition(request.buttons.indices.contains(index), "button \(index) out of range")
    checkCount(of: values, for: request)
    precondition(request.isButtonEnabled(at: index, textFieldValues: values), "button \(index) chosen while disabled")
  case .dismissed(let values):
    checkCount(of: values, for: request)
  }
}

/// One value per text field.
func checkCount(of values: [String], for request: DialogRequest) {
  precondition(values.count == request.textFields.count, "\(values.count) values, \(request.textFields.count) fields")
}

/// How long a session may take once its input has ended: it must then answer, not wait.
let answerDeadline = DispatchTimeInterval.seconds(20)

/// Presents `request` on `presenter`, runs `afterStart` (which feeds the input and may ask whether
/// the answer has come), and waits for the answer, with a deadline (a session that never answers
/// after its input ended is a bug).
func present(
  _ request: DialogRequest,
  on presenter: TerminalPresenter,
  afterStart: (_ isAnswered: () -> Bool) -> Void
) -> DialogAnswer {
  let answer = Mutex<DialogAnswer?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let result = await presenter.present(request)
    answer.withLock { $0 = result }
    done.signal()
  }
  afterStart { answer.withLock { $0 != nil } }
  precondition(done.wait(timeout: .now() + answerDeadline) == .success, "no answer after the input ended")
  return answer.withLock { $0 }!
}

/// Pipe mode: the keys are written to a pipe, which is then closed.
func answerFromPipe(_ request: DialogRequest, keys: [UInt8]) -> DialogAnswer {
  var ends: [Int32] = [-1, -1]
  precondition(pipe(&ends) == 0, "pipe failed")
  let sink = open("/dev/null", O_WRONLY)
  defer {
    close(ends[0])
    close(sink)
  }
  writeAll(keys, to: ends[1])  // at most 1 KB: the pipe holds it all
  close(ends[1])
  return present(request, on: TerminalPresenter(input: ends[0], output: sink, environment: [:])) { _ in }
}

/// Raw mode: the keys are typed on a pseudo-terminal. Once the session has read them all, the
/// terminal hangs up (closing it sooner would discard what it has not read yet).
func answerOnPseudoTerminal(_ request: DialogRequest, keys: [UInt8]) -> DialogAnswer {
  var primary: Int32 = -1
  var secondary: Int32 = -1
  var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
  precondition(openpty(&primary, &secondary, nil, nil, &size) == 0, "openpty failed")
  defer { close(secondary) }
  // What the session draws is read and dropped, so that its writes never wait. The reads poll, so
  // that the drain can stop before the terminal is closed: a thread blocked in `read` would keep
  // it open, and the session would never see the hang-up.
  let stop = Atomic(false)
  let drained = DispatchSemaphore(value: 0)
  let drainer = primary
  let drain = Thread {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var descriptor = pollfd(fd: drainer, events: Int16(POLLIN), revents: 0)
    while !stop.load(ordering: .acquiring) {
      guard poll(&descriptor, 1, 10) > 0 else { continue }
      if buffer.withUnsafeMutableBytes({ read(drainer, $0.baseAddress!, $0.count) }) <= 0 { break }
    }
    drained.signal()
  }
  drain.start()
  let presenter = TerminalPresenter(input: secondary, output: secondary, environment: ["TERM": "xterm"])
  return present(request, on: presenter) { isAnswered in
    writeAll(keys, to: primary)
    // Waits (up to the deadline) until the session has read every key or answered (the keys after
    // the answer are never read), then hangs up.
    let deadline = ContinuousClock.now + .seconds(20)
    var idle = 0
    while idle < 2, !isAnswered(), ContinuousClock.now < deadline {
      idle = pendingInput(secondary) == 0 ? idle + 1 : 0
      usleep(1000)
    }
    stop.store(true, ordering: .releasing)
    drained.wait()
    close(primary)
  }
}

/// The bytes written to the terminal that the session has not read yet.
func pendingInput(_ descriptor: Int32) -> Int32 {
  var count: Int32 = 0
  return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? count : 0
}

/// Writes every byte of `bytes` to `descriptor`.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0, errno == EINTR { continue }
      precondition(written > 0, "write failed: \(errno)")
      offset += written
    }
  }
}
