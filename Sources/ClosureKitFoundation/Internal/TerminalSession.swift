import ClosureKit

/// One dialog shown on a terminal or read from a pipe; runs on the session thread only.
struct TerminalSession {
  /// How the session talks to the user.
  enum Mode: Equatable {
    /// Input and output are a terminal and `TERM` is set and not `dumb`: raw mode, arrow keys,
    /// Enter, numbers, a redrawn menu.
    case raw
    /// Input is a terminal, but `TERM` is `dumb` or unset or the output is not a terminal: one
    /// line per answer, the terminal echoes.
    case lineTerminal
    /// Not a terminal: one line per answer, echoed by the session so the transcript reads well.
    case pipe
  }

  /// What the user did in one step of the raw-mode session.
  enum Step {
    /// A button was chosen.
    case chose(Int)
    /// The text must be entered again because the chosen button is disabled for it.
    case editAgain
    /// End of input, Ctrl-C, Esc or an error.
    case dismissed
  }

  static let escape = "\u{1b}"

  let io: TerminalIO
  let request: DialogRequest
  let mode: Mode
  let usesColor: Bool

  init(io: TerminalIO, request: DialogRequest, environment: [String: String]) {
    self.io = io
    self.request = request
    let term = environment["TERM"] ?? ""
    if TerminalCalls.isTerminal(io.input) {
      let canDraw = TerminalCalls.isTerminal(io.output) && !term.isEmpty && term != "dumb"
      mode = canDraw ? .raw : .lineTerminal
    } else {
      mode = .pipe
    }
    usesColor = mode == .raw && (environment["NO_COLOR"] ?? "").isEmpty
  }

  func run() -> DialogAnswer {
    TerminalCalls.flushStandardStreams()  // what the program printed with `print` comes before the dialog
    if mode == .raw {
      let answer = TerminalModeGuard.with(input: io.input, output: io.output, mode: .raw) {
        io.emit("\(Self.escape)[?25l")
        defer { io.emit("\(Self.escape)[?25h") }
        return runRaw()
      }
      if let answer { return answer }
    }
    return runLines()
  }

  // MARK: Shared

  private var emptyValues: [String] { request.textFields.map { _ in "" } }

  private func styled(_ text: String, _ codes: String) -> String {
    usesColor ? "\(Self.escape)[\(codes)m\(text)\(Self.escape)[0m" : text
  }

  private func printHeader() {
    if let title = request.title, !title.isEmpty { io.emit(styled(title, "1") + "\n") }
    if let message = request.message, !message.isEmpty { io.emit(message + "\n") }
  }

  private func prompt(forField index: Int) -> String {
    let placeholder = request.textFields[index].placeholder
    return (placeholder.isEmpty ? "Text \(index + 1)" : placeholder) + ": "
  }

  private func disabledMessage(_ index: Int) -> String {
    "\"\(request.buttons[index].title)\" is not available with this text"
  }

  /// The button named by `answer`: its number (1-based) or its title, ignoring case.
  func parseChoice(_ answer: String) -> Int? {
    let trimmed = answer.trimmingWhitespace()
    if let number = Int(trimmed), request.buttons.indices.contains(number - 1) { return number - 1 }
    if let exact = request.buttons.firstIndex(where: { $0.title == trimmed }) { return exact }
    return request.buttons.firstIndex { $0.title.lowercased() == trimmed.lowercased() }
  }

  // MARK: Line mode (pipe, dumb terminal)

  private func runLines() -> DialogAnswer {
    printHeader()
    for (index, button) in request.buttons.enumerated() { io.emit("  \(index + 1)) \(button.title)\n") }
    request.reportPresented()  // the dialog is on screen: its did-present closure may run
    var values = emptyValues
    var needsText = !request.textFields.isEmpty
    let count = request.buttons.count
    let range = count == 1 ? "1" : "1-\(count)"
    let spelledRange = count == 1 ? "1" : "1 to \(count)"
    while true {
      if needsText {
        for index in request.textFields.indices {
          guard let text = readLine(prompt: prompt(forField: index), isSecure: request.textFields[index].isSecure)
          else {
            io.emit("(end of input)\n")
            return .dismissed(textFieldValues: values)
          }
          values[index] = text
        }
        needsText = false
      }
      guard let answer = readLine(prompt: "Choose \(range) (number or title): ", isSecure: false) else {
        io.emit("(end of input)\n")
        return .dismissed(textFieldValues: values)
      }
      guard let index = parseChoice(answer) else {
        io.emit("Invalid answer \"\(answer)\": type a number from \(spelledRange) or a button title.\n")
        continue
      }
      guard request.isButtonEnabled(at: index, textFieldValues: values) else {
        if request.textFields.isEmpty {
          io.emit(disabledMessage(index) + ".\n")
        } else {
          io.emit(disabledMessage(index) + "; enter it again.\n")
          needsText = true
        }
        continue
      }
      return .button(index, textFieldValues: values)
    }
  }

  /// Shows `prompt` and reads one line; from a pipe, echoes it (secure text as nothing); on a
  /// dumb terminal, turns echo off for secure text before the prompt appears.
  private func readLine(prompt: String, isSecure: Bool) -> String? {
    switch mode {
    case .pipe:
      io.emit(prompt)
      let line = io.readLine()
      if let line { io.emit((isSecure ? "" : line) + "\n") }
      return line
    case .lineTerminal where isSecure:
      let line =
        TerminalModeGuard.with(input: io.input, output: io.output, mode: .noEcho) {
          io.emit(prompt)
          return io.readLine()
        } ?? readLine(prompt: prompt, isSecure: false)
      if line != nil { io.emit("\n") }
      return line
    default:
      io.emit(prompt)
      return io.readLine()
    }
  }

  // MARK: Raw mode

  private func runRaw() -> DialogAnswer {
    printHeader()
    request.reportPresented()  // the dialog is on screen: its did-present closure may run
    var values = emptyValues
    while true {
      for index in request.textFields.indices {
        guard let text = editField(index) else { return .dismissed(textFieldValues: values) }
        values[index] = text
      }
      switch menu(values: values) {
      case .chose(let index): return .button(index, textFieldValues: values)
      case .dismissed: return .dismissed(textFieldValues: values)
      case .editAgain: continue
      }
    }
  }

  /// Reads what follows an Esc: a control sequence's final byte, or `nil` for a lone Esc.
  private func readEscapeSequence() -> UInt8?? {
    guard case .byte(let introducer) = io.readByte(timeout: 50) else { return .some(nil) }
    guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return .some(nil) }
    while true {
      switch io.readByte(timeout: 50) {
      case .byte(let byte) where (0x40...0x7E).contains(byte): return .some(byte)
      case .byte: continue
      case .timeout: return nil
      case .end: return .some(nil)
      }
    }
  }

  /// Edits one text field; `nil` when the dialog is dismissed.
  private func editField(_ index: Int) -> String? {
    let isSecure = request.textFields[index].isSecure
    io.emit(styled(prompt(forField: index), "1"))
    var bytes: [UInt8] = []
    func erase(_ characters: Int) {
      if !isSecure && characters > 0 {
        io.emit(String(repeating: "\u{8} \u{8}", count: characters))
      }
    }
    while true {
      switch io.readByte() {
      case .end, .timeout:
        io.emit("\n")
        return nil
      case .byte(3):
        io.emit("^C\n")
        return nil
      case .byte(4):
        if bytes.isEmpty {
          io.emit("\n")
          return nil
        }
      case .byte(13), .byte(10):
        io.emit("\n")
        return String(decoding: bytes, as: UTF8.self)
      case .byte(127), .byte(8):
        guard !bytes.isEmpty else { continue }
        while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
        erase(1)
      case .byte(21):
        erase(String(decoding: bytes, as: UTF8.self).count)
        bytes.removeAll()
      case .byte(27):
        if case .some(nil) = readEscapeSequence() {
          io.emit("\n")
          return nil
        }
      case .byte(let byte) where byte < 32:
        continue
      case .byte(let byte):
        bytes.append(byte)
        if !isSecure { io.emit(echo(byte, in: bytes)) }
      }
    }
  }

  /// The text to echo after `byte` was appended: a whole character once its last byte arrived.
  private func echo(_ byte: UInt8, in bytes: [UInt8]) -> String {
    var start = bytes.count - 1
    while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    let tail = Array(bytes[start...])
    let lead = tail[0]
    let expected = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    return tail.count >= expected ? String(decoding: tail, as: UTF8.self) : ""
  }

  /// The terminal's width in columns; 80 when it cannot be read.
  private var columns: Int {
    TerminalCalls.columns(of: io.output) ?? 80
  }

  /// `text` cut to `width` characters, so that a redrawn line never wraps.
  private func fitted(_ text: String, width: Int) -> String {
    guard text.count > width else { return text }
    return String(text.prefix(max(width - 3, 1))) + "..."
  }

  private func menuLine(_ index: Int, selected: Int, enabled: [Bool], width: Int) -> String {
    let button = request.buttons[index]
    let marker = index == selected ? "> " : "  "
    var text = "\(index + 1). \(button.title)"
    if !enabled[index] { text += " (unavailable)" }
    text = fitted(text, width: width - marker.count)
    var codes: [String] = []
    if index == selected { codes.append("7") }
    if button.role == .destructive { codes.append("31") }
    if !enabled[index] { codes.append("2") }
    return marker + (codes.isEmpty ? text : styled(text, codes.joined(separator: ";")))
  }

  private func menu(values: [String]) -> Step {
    let buttons = request.buttons
    let enabled = buttons.indices.map { request.isButtonEnabled(at: $0, textFieldValues: values) }
    var selected =
      buttons.indices.first { buttons[$0].role == .default && enabled[$0] } ?? request.cancelButtonIndex ?? 0
    let count = buttons.count
    let range = count == 1 ? "1" : "1-\(count)"
    let help = "Up/Down to move, Enter to choose, \(range) to pick, Esc to cancel"
    var digits = ""
    var drawn = false
    let width = columns - 1  // the last column would make some terminals wrap
    func draw(_ hint: String) {
      if drawn { io.emit("\(Self.escape)[\(count + 1)A") }
      var text = ""
      for index in buttons.indices {
        text += "\r\(Self.escape)[2K" + menuLine(index, selected: selected, enabled: enabled, width: width) + "\n"
      }
      let hint = fitted(hint, width: width)
      text += "\r\(Self.escape)[2K" + (usesColor ? styled(hint, "2") : hint) + "\n"
      io.emit(text)
      drawn = true
    }
    /// Chooses `index`, or explains why not; `nil` keeps the menu open.
    func choose(_ index: Int) -> Step? {
      selected = index
      guard enabled[index] else {
        if request.textFields.isEmpty {
          draw(disabledMessage(index) + ". " + help)
          return nil
        }
        draw(disabledMessage(index) + "; enter it again.")
        return .editAgain
      }
      draw("Chosen: \(buttons[index].title)")
      return .chose(index)
    }
    func dismiss(_ reason: String) -> Step {
      selected = -1  // no button looks chosen
      draw(reason)
      return .dismissed
    }
    draw(help)
    while true {
      switch io.readByte() {
      case .end, .timeout:
        return dismiss("Dismissed (end of input)")
      case .byte(3):
        return dismiss("Dismissed (interrupted)")
      case .byte(4):
        return dismiss("Dismissed (end of input)")
      case .byte(13), .byte(10):
        if let number = Int(digits), buttons.indices.contains(number - 1) {
          digits = ""
          if let step = choose(number - 1) { return step }
        } else if let step = choose(selected) {
          return step
        }
      case .byte(27):
        switch readEscapeSequence() {
        case .some(nil): return dismiss("Dismissed")
        case .some(UInt8(ascii: "A")), .some(UInt8(ascii: "D")):
          selected = (selected + count - 1) % count
          digits = ""
          draw(help)
        case .some(UInt8(ascii: "B")), .some(UInt8(ascii: "C")):
          selected = (selected + 1) % count
          digits = ""
          draw(help)
        default:
          continue
        }
      case .byte(9), .byte(UInt8(ascii: "j")):
        selected = (selected + 1) % count
        draw(help)
      case .byte(UInt8(ascii: "k")):
        selected = (selected + count - 1) % count
        draw(help)
      case .byte(let byte) where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
        digits.append(Character(Unicode.Scalar(byte)))
        guard let number = Int(digits), buttons.indices.contains(number - 1) else {
          digits = ""
          draw("No button \(Character(Unicode.Scalar(byte))). " + help)
          continue
        }
        if count < 10 || number * 10 > count {
          digits = ""
          if let step = choose(number - 1) { return step }
        } else {
          selected = number - 1
          draw("Number: \(digits) (Enter to choose)")
        }
      default:
        continue
      }
    }
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and line ends.
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
