public import ClosureKit
public import Foundation

/// A `DialogPresenter` for the user interface every platform has: the terminal.
///
/// ```swift
/// let alert = AlertDialog(title: "Save changes?")
/// alert.addButton("Cancel", role: .cancel)
/// alert.addButton("Save") { _ in print("saved") }
/// let result = try await alert.present(on: TerminalPresenter())
/// ```
///
/// On a terminal (`input` and `output` are TTYs, `TERM` is set and not `dumb`) it uses raw mode
/// and shows a menu: Up/Down (or Tab, `j`/`k`) move, Enter chooses, a button's number chooses
/// it at once, Esc, Ctrl-C or Ctrl-D dismiss. Text fields are edited first, one line each;
/// secure text is not echoed. The terminal's settings are restored on return and when the
/// process receives SIGINT, SIGTERM, SIGHUP or SIGQUIT during the dialog (the signal is then
/// re-raised under the previous action).
///
/// Otherwise (a pipe, a file, `TERM=dumb`) it reads one line per answer: the text of each
/// field, then the button by number (1-based, as listed) or by title, ignoring case. An invalid
/// answer prints a message and asks again; the end of input dismisses the dialog. From a pipe,
/// each answer is echoed so that the transcript reads as a dialog (secure text as an empty
/// line); on a dumb terminal, echo is turned off while secure text is typed.
///
/// Colour and text attributes are used only in raw mode, and never when `NO_COLOR` is set to a
/// non-empty value.
///
/// > Important: The dialog runs on a thread of its own (blocking reads never hold a Swift
/// > concurrency thread), one dialog at a time per process: a second dialog waits for the first.
/// > Input is read a byte at a time, so nothing after the answer is consumed. A read error, a
/// > closed terminal and the end of input all dismiss the dialog; a failed write (SIGPIPE is
/// > blocked on the dialog thread) stops the output but not the dialog. Cancelling the
/// > presenting task dismisses the dialog at once. The dialog is reported on screen
/// > (`DialogRequest.reportPresented()`) once its title, message and buttons are written (in raw
/// > mode, once the title and message are), so its did-present closure runs while it waits.
public struct TerminalPresenter: DialogPresenter {
  /// The descriptor answers are read from.
  public let input: Int32
  /// The descriptor the dialog is written to.
  public let output: Int32
  /// The environment consulted for `TERM` and `NO_COLOR`.
  public let environment: [String: String]

  /// Creates a presenter on the given descriptors.
  ///
  /// ```swift
  /// let presenter = TerminalPresenter()                                   // stdin and stdout
  /// let scripted = TerminalPresenter(input: pipeRead, output: logFile, environment: [:])
  /// ```
  ///
  /// - Parameters:
  ///   - input: Where answers are read; defaults to standard input (descriptor 0). Not closed by
  ///     the presenter.
  ///   - output: Where the dialog is written; defaults to standard output (descriptor 1). Not
  ///     closed.
  ///   - environment: Consulted for `TERM` and `NO_COLOR`; defaults to the process's.
  public init(
    input: Int32 = 0,
    output: Int32 = 1,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.input = input
    self.output = output
    self.environment = environment
  }

  /// Shows `request` on the terminal, or reads the answer from the input, and returns it.
  ///
  /// ```swift
  /// let answer = await TerminalPresenter().present(request)
  /// ```
  ///
  /// - Parameter request: The dialog to show.
  /// - Returns: The chosen button with the text typed, or a dismissal.
  ///
  /// > Important: Runs the dialog on a dedicated thread and suspends until it is answered.
  public func present(_ request: DialogRequest) async -> DialogAnswer {
    let io = TerminalIO(input: input, output: output)
    let environment = environment
    // The thread object may outlive the answer; it must not keep the validation closure alive.
    let handOff = HandOff(request)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<DialogAnswer, Never>) in
        let thread = Thread {
          TerminalCalls.blockBrokenPipeSignalOnCurrentThread()
          terminalSessionLock.lock()
          let answer = handOff.take().map { TerminalSession(io: io, request: $0, environment: environment).run() }
          terminalSessionLock.unlock()
          continuation.resume(returning: answer ?? .dismissed(textFieldValues: []))
        }
        thread.name = "ClosureKit.TerminalPresenter"
        thread.start()
      }
    } onCancel: {
      io.cancel()
    }
  }
}
