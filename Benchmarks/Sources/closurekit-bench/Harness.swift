import Foundation

/// One benchmark suite: a name for the command line and a body that prints its table.
struct Suite: Sendable {
  let name: String
  let run: @Sendable () async -> Void
}

/// Keeps the optimiser from deleting the work being measured.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// A counter mutated by benchmark handlers on one thread at a time.
///
/// `@unchecked Sendable`: each benchmark touches a counter from one thread only. Its exclusivity
/// is unchecked for the same reason: the runtime's check (a begin and an end access call, about
/// 5 ns) would add to every handler call of a row and of its baseline alike and hide their ratio.
final class Counter: @unchecked Sendable {
  @exclusivity(unchecked) var value = 0
}

/// The code under test, run `iterations` times in a loop the closure writes out itself:
/// `{ count in for index in 0..<count { box.value = index } }`.
///
/// The timed loop is the code under test and nothing else: the harness calls the closure once per
/// round, not once per iteration, so no closure call, no captured (heap-boxed) counter and no
/// context load of the harness is added to every iteration of a row and of its baseline alike
/// (that cost hides a ratio: the `Observed` write measured 1.96x of its baseline with a closure
/// call per iteration and 3.44x as a tight loop). The closure's captures are loaded once, before
/// the loop.
typealias TimedLoop = (_ iterations: Int) -> Void

/// Nanoseconds per iteration of `loop` (see ``TimedLoop``): the median of `rounds` timed runs of
/// `iterations` each.
func nanoseconds(iterations: Int, rounds: Int = 9, _ loop: TimedLoop) -> Double {
  let clock = ContinuousClock()
  var samples: [Double] = []
  for _ in 0..<rounds {
    let elapsed = clock.measure { loop(iterations) }
    samples.append(Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9)
  }
  samples.sort()
  return samples[samples.count / 2] / Double(iterations)
}

/// Nanoseconds of one run of `body`, the median of `rounds` runs.
func nanosecondsOnce(rounds: Int = 5, _ body: () -> Void) -> Double {
  nanoseconds(iterations: 1, rounds: rounds) { _ in body() }
}

/// Async variant of ``nanosecondsOnce(rounds:_:)``.
func nanosecondsOnce(rounds: Int = 5, _ body: () async -> Void) async -> Double {
  let clock = ContinuousClock()
  var samples: [Double] = []
  for _ in 0..<rounds {
    let start = clock.now
    await body()
    let elapsed = start.duration(to: clock.now)
    samples.append(Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9)
  }
  samples.sort()
  return samples[samples.count / 2]
}

/// The resident set size of this process, in bytes.
func residentBytes() -> Int {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A table printed as rows of name, value and ratio to the row marked as baseline.
struct Table {
  let title: String
  let unit: String
  private(set) var rows: [(name: String, value: Double, baseline: Bool)] = []

  init(_ title: String, unit: String = "ns/op") {
    self.title = title
    self.unit = unit
  }

  mutating func add(_ name: String, _ value: Double, baseline: Bool = false) {
    rows.append((name, value, baseline))
  }

  /// The value of the row `name`; NaN if there is none.
  func value(of name: String) -> Double {
    rows.first(where: { $0.name == name })?.value ?? .nan
  }

  /// The value of the row `name` divided by the baseline's.
  func ratio(of name: String) -> Double {
    guard let baseline = rows.first(where: \.baseline)?.value,
      let row = rows.first(where: { $0.name == name })
    else { return .nan }
    return row.value / baseline
  }

  func print() {
    let baseline = rows.first(where: \.baseline)?.value
    Swift.print("\n\(title)")
    let width = max(rows.map(\.name.count).max() ?? 0, 20)
    for row in rows {
      let name = row.name.padding(toLength: width)
      let value = format(row.value).leftPadding(toLength: 12)
      var line = "  \(name)  \(value) \(unit)"
      if let baseline, baseline > 0 {
        line += "   x\(format(row.value / baseline, decimals: 2))"
        if row.baseline { line += " (baseline)" }
      }
      Swift.print(line)
    }
    fflush(nil)  // show each table as soon as it is done, also when output goes to a file
  }
}

func format(_ value: Double, decimals: Int = 1) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  let text = "\(rounded)"
  guard let dot = text.firstIndex(of: ".") else { return text }
  let fraction = text[text.index(after: dot)...]
  return String(text[..<dot]) + "." + fraction.padding(toLength: decimals, with: "0")
}

extension StringProtocol {
  func padding(toLength length: Int, with pad: Character = " ") -> String {
    count >= length ? String(self) : String(self) + String(repeating: pad, count: length - count)
  }

  func leftPadding(toLength length: Int) -> String {
    count >= length ? String(self) : String(repeating: " ", count: length - count) + String(self)
  }
}

/// Nanoseconds per iteration of each loop (see ``TimedLoop``), measured in interleaved rounds
/// (each loop once per round, in turn) and taking each loop's fastest round.
///
/// On a loaded machine other processes slow down rounds at random; interleaving exposes every loop
/// to the same load, and the minimum is what the code costs when it has the CPU, so ratios between
/// the loops stay stable where medians of back-to-back blocks do not.
func interleavedMinimum(rounds: Int = 15, _ loops: [(iterations: Int, loop: TimedLoop)]) -> [Double] {
  let clock = ContinuousClock()
  var best = Array(repeating: Double.infinity, count: loops.count)
  for _ in 0..<rounds {
    for (index, entry) in loops.enumerated() {
      let elapsed = clock.measure { entry.loop(entry.iterations) }
      let nanoseconds =
        Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
      best[index] = min(best[index], nanoseconds / Double(entry.iterations))
    }
  }
  return best
}
