import ClosureKit
import ClosureKitFoundation
import Foundation

/// Answers every dialog with its second button, at once.
private struct SecondButtonPresenter: DialogPresenter {
  func present(_ request: DialogRequest) async -> DialogAnswer {
    .button(1, textFieldValues: request.textFields.map { _ in "" })
  }
}

/// What one dialog costs: building it, presenting it, running the chosen closure once and
/// releasing the others, against calling one closure out of an array of three.
let dialogsSuite = Suite(name: "dialogs") {
  let iterations = 20_000
  let counter = Counter()

  let baseline = nanoseconds(iterations: iterations, rounds: 5) { count in
    for _ in 0..<count {
      let actions: [() -> Void] = [{ counter.value += 1 }, { counter.value += 2 }, { counter.value += 3 }]
      actions[1]()
      blackHole(actions)
    }
  }

  let presenter = SecondButtonPresenter()
  let alertTotal = await nanosecondsOnce(rounds: 5) {
    for _ in 0..<iterations {
      let alert = AlertDialog(title: "Save?")
      alert.addButton("Cancel", role: .cancel) { _ in blackHole(1) }
      alert.addButton("Save") { _ in blackHole(2) }
      alert.addButton("Discard", role: .destructive) { _ in blackHole(3) }
      blackHole(try? await alert.present(on: presenter))
    }
  }

  // The terminal presenter reading "2\n" from a pipe: a thread per dialog, one read per byte.
  let terminalIterations = 200
  let terminalTotal = await nanosecondsOnce(rounds: 3) {
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    guard pipe(&input) == 0, pipe(&output) == 0 else { return }
    let answers = Array(String(repeating: "2\n", count: terminalIterations).utf8)
    _ = answers.withUnsafeBytes { write(input[1], $0.baseAddress!, $0.count) }
    close(input[1])
    let drained = output[0]
    let drain = Thread {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while buffer.withUnsafeMutableBytes({ read(drained, $0.baseAddress!, $0.count) }) > 0 {}
      close(drained)
    }
    drain.start()
    let terminal = TerminalPresenter(input: input[0], output: output[1], environment: [:])
    for _ in 0..<terminalIterations {
      let alert = AlertDialog(title: "Save?", cancelButtonTitle: "Cancel", otherButtonTitles: "Save") { blackHole($0) }
      blackHole(try? await alert.present(on: terminal))
    }
    close(output[1])
    close(input[0])
  }

  var table = Table("one dialog with 3 buttons, answered, one closure run")
  table.add("3 closures in an array, call one", baseline, baseline: true)
  table.add("AlertDialog + present(on:) (instant presenter)", alertTotal / Double(iterations))
  table.add("AlertDialog + TerminalPresenter from a pipe", terminalTotal / Double(terminalIterations))
  table.print()
  blackHole(counter.value)
}
