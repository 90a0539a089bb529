import ClosureKit
import ClosureKitFoundation
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(FoundationXML)
  import FoundationXML
#endif

// The async forms against their callback forms and against AsyncStream (issue 29): suite `async`
// (XML events), suite `async-values` (values, changes, lines). Each table's rows are measured in
// interleaved rounds and report their fastest round, as the event tables do.

let asyncFormsSuite = Suite(name: "async") {
  (await xmlEventsTable(megabytes: 10, rounds: 7)).print()
  (await xmlEventsTable(megabytes: 100, rounds: 3)).print()
  (await xmlBytesEventsTable(megabytes: 10, rounds: 7)).print()
  xmlEventsPeakMemoryBenchmark(megabytes: 100)
}

/// `Event.values` and `Observed.changes()` against `AsyncStream`, and `lines` against a callback.
let asyncValuesSuite = Suite(name: "async-values") {
  (await valuesDrainTable(rounds: 31)).print()
  (await valuesPingPongTable(rounds: 41)).print()
  (await linesTable(rounds: 5))?.print()
}

/// The async rows the regression guard checks, printed as `guard <key> <ratio>`, and the XML
/// events row as `guard-best xml-events-10mb <ratio>`: the guard counts it at its best over this
/// process and two of suite `guard-xml`.
let guardAsyncSuite = Suite(name: "guard-async") {
  await printGuardXMLEvents()
  let bytes = await xmlBytesEventsTable(megabytes: 10, rounds: 5)
  bytes.print()
  print("guard xml-bytes-events-10mb \(bytes.ratio(of: "ClosureXMLParser.events(in: bytes), for try await"))")
  let drain = await valuesDrainTable(rounds: 21)
  drain.print()
  print("guard values-drain \(drain.ratio(of: "Event.values"))")
  let pingPong = await valuesPingPongTable(rounds: 31)
  pingPong.print()
  print("guard values-ping-pong \(pingPong.medianRatio)")
}

/// The XML events row alone, for the guard's extra processes: a round is one 100-ms parse per row,
/// so one round slowed by another process moves the fastest of five (a CI run measured 1.80 in the
/// process where the idle machine measures 1.05 to 1.38).
let guardXMLSuite = Suite(name: "guard-xml") {
  await printGuardXMLEvents()
}

/// Prints the 10-MB XML events table (15 interleaved rounds) and its `guard-best` line.
func printGuardXMLEvents() async {
  let xml = await xmlEventsTable(megabytes: 10, rounds: 15)
  xml.print()
  print("guard-best xml-events-10mb \(xml.ratio(of: "ClosureXMLParser.events(in:), for try await"))")
}

/// Wall-clock nanoseconds of one run of `body`.
func wallNanoseconds(_ body: () async -> Void) async -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  await body()
  let elapsed = start.duration(to: clock.now)
  return Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
}

/// Counts every event of `events` as ``SAXTally`` does; stops the benchmark if the parse fails.
func countEvents(_ events: XMLEventSequence) async -> SAXCount {
  var count = SAXCount()
  do {
    for try await event in events { count.count(event) }
  } catch {
    preconditionFailure("events(in:) failed on the benchmark document: \(error)")
  }
  return count
}

/// What the async consumers count, the same as the callbacks' ``SAXTally``.
struct SAXCount: Equatable {
  var elements = 0
  var characters = 0
  var comments = 0
  var cdata = 0

  mutating func count(_ event: XMLEvent) {
    switch event {
    case .startElement, .endElement: elements &+= 1
    case .characters(let text): characters &+= text.utf8.count
    case .comment: comments &+= 1
    case .cdata(let data): cdata &+= data.count
    default: break
    }
  }
}

/// Every event of a generated document: the callback form against `for try await` over the
/// events, in a detached task (the consumer a user writes), wall time of the whole parse.
func xmlEventsTable(megabytes: Int, rounds: Int) async -> Table {
  let document = makeBenchmarkDocument(megabytes: megabytes)
  let tally = SAXTally()
  let handlers = tally.countingHandlers
  let best = await fastestXMLRounds(
    rounds, tally: tally,
    callback: { precondition((try? ClosureXMLParser.parse(document, handlers: handlers)) == .finished) },
    asyncForms: [{ ClosureXMLParser.events(in: document) }, { XMLParser.events(in: document) }])
  var table = Table(
    "every event of a \(document.count / 1_000_000) MB document (wall time, fastest of \(rounds) interleaved rounds)",
    unit: "ms")
  table.add("ClosureXMLParser.parse(_:handlers:)", best[0], baseline: true)
  table.add("ClosureXMLParser.events(in:), for try await", best[1])
  table.add("XMLParser.events(in:), for try await", best[2])
  return table
}

/// An in-memory document as an `AsyncSequence` of bytes, for the byte-sequence forms: its
/// `next()` never suspends, so the rows measure the parse and the hand-over, not a network.
struct InMemoryBytes: AsyncSequence, Sendable {
  let data: [UInt8]

  struct AsyncIterator: AsyncIteratorProtocol {
    let data: [UInt8]
    var index = 0
    mutating func next() async -> UInt8? {
      guard index < data.count else { return nil }
      defer { index += 1 }
      return data[index]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data) }
}

/// Every event of a generated document read from a byte sequence (XMLByteHandOver, issue 29):
/// the callback form `parse(_:handlers:)` over the bytes against `for try await` over
/// `events(in:)` of the same bytes, in a detached task, wall time of the whole parse.
func xmlBytesEventsTable(megabytes: Int, rounds: Int) async -> Table {
  let bytes = InMemoryBytes(data: [UInt8](makeBenchmarkDocument(megabytes: megabytes)))
  let tally = SAXTally()
  let handlers = tally.countingHandlers
  let best = await fastestXMLRounds(
    rounds, tally: tally,
    callback: {
      let outcome = try? await ClosureXMLParser.parse(bytes, handlers: handlers)
      precondition(outcome == .finished)
    },
    asyncForms: [{ ClosureXMLParser.events(in: bytes) }])
  var table = Table(
    "every event of a \(bytes.data.count / 1_000_000) MB document read as bytes (wall time, fastest of \(rounds) rounds)",
    unit: "ms")
  table.add("ClosureXMLParser.parse(bytes, handlers:)", best[0], baseline: true)
  table.add("ClosureXMLParser.events(in: bytes), for try await", best[1])
  return table
}

/// Runs `callback` (which counts into `tally`) and then each of `asyncForms`, iterated to the end
/// in a detached task, in `rounds` interleaved rounds; checks that every form saw the callback's
/// events and returns each one's fastest round in milliseconds, the callback's first.
func fastestXMLRounds(
  _ rounds: Int, tally: SAXTally, callback: () async -> Void,
  asyncForms: [@Sendable () -> XMLEventSequence]
) async -> [Double] {
  var best = [Double](repeating: .infinity, count: 1 + asyncForms.count)
  var counts: [SAXCount] = []
  for _ in 0..<rounds {
    best[0] = min(
      best[0],
      await wallNanoseconds {
        tally.reset()
        await callback()
      })
    for (index, events) in asyncForms.enumerated() {
      best[index + 1] = min(
        best[index + 1],
        await wallNanoseconds { counts.append(await Task.detached { await countEvents(events()) }.value) })
    }
  }
  let expected = tally.count
  precondition(counts.allSatisfy { $0 == expected }, "the async forms and the callbacks saw different events")
  return best.map { $0 / 1e6 }
}

/// Peak resident memory of a child process that iterates every event of a `megabytes` MB
/// document held in memory, against one that only holds it.
func xmlEventsPeakMemoryBenchmark(megabytes: Int) {
  withBenchmarkDocumentFile(megabytes: megabytes) { url in
    var table = Table("peak memory iterating the events of a \(megabytes) MB document in memory", unit: "MB")
    table.add("child process holding the document", peakInChildProcess("holding", url), baseline: true)
    table.add("ClosureXMLParser.events(in:), every event", peakInChildProcess("events", url))
    table.print()
  }
}

/// The child-process side of ``xmlEventsPeakMemoryBenchmark(megabytes:)`` (`--xml-peak holding|events FILE`).
func xmlEventsPeakProbe(_ variant: String, _ url: URL) async {
  guard let document = try? Data(contentsOf: url) else { exit(1) }
  if variant == "events" {
    var count = SAXCount()
    do {
      for try await event in ClosureXMLParser.events(in: document) { count.count(event) }
    } catch {
      exit(1)
    }
    blackHole(count.elements)
  }
  blackHole(document.count)
}

/// 10,000 values sent before the consumer runs, then drained: time per element of the drain.
func valuesDrainTable(rounds: Int) async -> Table {
  let count = 10_000
  var best = [Double](repeating: .infinity, count: 3)
  for _ in 0..<rounds {
    do {
      let box = Observed(0)
      let changes = box.changes()
      for value in 0..<count { box.value = value }
      best[2] = min(
        best[2],
        await wallNanoseconds {
          var sum = 0
          var received = 0
          for await change in changes {
            sum &+= change.newValue!
            received += 1
            if received == count { break }
          }
          blackHole(sum)
        })
    }
    do {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      for value in 0..<count { continuation.yield(value) }
      best[0] = min(best[0], await wallNanoseconds { blackHole(await drain(stream, count: count)) })
      continuation.finish()
    }
    do {
      let event = Event<Int>()
      let values = event.values
      for value in 0..<count { event.send(value) }
      best[1] = min(best[1], await wallNanoseconds { blackHole(await drain(values, count: count)) })
    }
  }
  var table = Table(
    "\(count) values sent before the consumer runs, then drained (fastest of \(rounds) interleaved rounds)",
    unit: "ns/element")
  table.add("AsyncStream", best[0] / Double(count), baseline: true)
  table.add("Event.values", best[1] / Double(count))
  table.add("Observed.changes() (10,000 writes)", best[2] / Double(count))
  return table
}

/// Takes `count` values of `values` and returns their sum.
func drain<Values: AsyncSequence<Int, Never>>(_ values: Values, count: Int) async -> Int {
  var sum = 0
  var received = 0
  for await value in values {
    sum &+= value
    received += 1
    if received == count { break }
  }
  return sum
}

/// One value at a time: the sender waits for the consumer to take each value before it sends
/// the next (the answer goes back through an `AsyncStream` in both rows). A round trip is two
/// thread wake-ups, which other processes delay at random, so the rounds are many and short, the
/// two rows alternate which goes first, and ``PingPongTable/medianRatio`` (the median of the
/// rounds' own ratios) is what the guard reads.
func valuesPingPongTable(rounds: Int) async -> PingPongTable {
  let count = 1_000
  var best = [Double](repeating: .infinity, count: 2)
  var ratios: [Double] = []
  for round in 0..<rounds {
    var times = [0.0, 0.0]
    for row in round.isMultiple(of: 2) ? [0, 1] : [1, 0] {
      if row == 0 {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        times[0] = await pingPong(stream, count: count) { continuation.yield($0) }
        continuation.finish()
      } else {
        let event = Event<Int>()
        let values = event.values
        times[1] = await pingPong(values, count: count) { event.send($0) }
      }
    }
    best = [min(best[0], times[0]), min(best[1], times[1])]
    ratios.append(times[1] / times[0])
  }
  var table = Table(
    "one value to one consumer, ping-pong (\(count) round trips, fastest of \(rounds) alternating rounds)",
    unit: "ns/round trip")
  table.add("AsyncStream", best[0] / Double(count), baseline: true)
  table.add("Event.values", best[1] / Double(count))
  return PingPongTable(table: table, medianRatio: ratios.sorted()[ratios.count / 2])
}

/// The ping-pong table and the median of its rounds' ratios (Event.values over AsyncStream).
struct PingPongTable {
  let table: Table
  let medianRatio: Double

  func print() {
    table.print()
    Swift.print("  median of the rounds' ratios: x\(format(medianRatio, decimals: 2))")
  }
}

/// Wall nanoseconds of `count` round trips: `send`, then wait for the consumer's answer.
func pingPong<Values: AsyncSequence<Int, Never> & Sendable>(
  _ values: Values, count: Int, send: (Int) -> Void
) async -> Double {
  let (answers, answer) = AsyncStream.makeStream(of: Int.self)
  let consumer = Task.detached {
    var received = 0
    for await value in values {
      answer.yield(value)
      received += 1
      if received == count { break }
    }
    answer.finish()
  }
  var iterator = answers.makeAsyncIterator()
  let time = await wallNanoseconds {
    for value in 0..<count {
      send(value)
      blackHole(await iterator.next())
    }
  }
  await consumer.value
  return time
}

/// Not a table: every event of a 10 MB document, five times, for a profiler or `perf stat`
/// (`closurekit-bench profile-xml-events`; `--callback` runs the callback form instead).
let profileXMLEventsSuite = Suite(name: "profile-xml-events") {
  let document = makeBenchmarkDocument(megabytes: 10)
  for _ in 0..<5 {
    var count = SAXCount()
    if CommandLine.arguments.contains("--callback") {
      let tally = SAXTally()
      precondition((try? ClosureXMLParser.parse(document, handlers: tally.countingHandlers)) == .finished)
      count = tally.count
    } else {
      count = await Task.detached { await countEvents(ClosureXMLParser.events(in: document)) }.value
    }
    blackHole(count.elements)
  }
}

/// The lines of a 50 MB body from the loopback server (`/lines/N`, `line i\n`): `bytes(for:).lines`
/// against the same bytes split by hand in a `dataTask`'s data closure, each line made a `String`
/// and its UTF-8 length summed by both. Wall time, fastest of `rounds` interleaved rounds.
func linesTable(rounds: Int) async -> Table? {
  let server: LoopbackServer
  do {
    server = try LoopbackServer()
  } catch {
    print("async: cannot start the loopback server: \(error)")
    return nil
  }
  defer { server.stop() }
  let lines = 4_000_000
  let url = server.url("/lines/\(lines)")
  let session = ClosureURLSession(configuration: .ephemeral)
  defer { session.finishTasksAndInvalidate() }
  var best = [Double](repeating: .infinity, count: 2)
  var totals: [Int] = []
  for _ in 0..<rounds {
    best[0] = min(
      best[0],
      await wallNanoseconds {
        let total: Int? = try? await withCheckedThrowingContinuation { continuation in
          // Touched only by the task's data closure, which URLSession calls one at a time.
          let splitter = LineSplitter()
          session.dataTask(
            with: URLRequest(url: url),
            handlers: URLTaskHandlers(
              data: { chunk in splitter.feed(chunk) },
              completion: { result in
                switch result {
                case .success: continuation.resume(returning: splitter.finish())
                case .failure(let error): continuation.resume(throwing: error)
                }
              }
            )
          ).resume()
        }
        totals.append(total ?? -1)
      })
    best[1] = min(
      best[1],
      await wallNanoseconds {
        var total = 0
        do {
          let (bytes, _) = try await session.bytes(for: URLRequest(url: url))
          for try await line in bytes.lines { total &+= line.utf8.count &+ 1 }
        } catch {
          total = -1
        }
        totals.append(total)
      })
  }
  precondition(Set(totals).count == 1 && totals[0] > 0, "the two ways read different lines: \(Set(totals))")
  var table = Table(
    "the lines of a \(totals[0] / 1_000_000) MB body over loopback (wall time, fastest of \(rounds) interleaved rounds)",
    unit: "ms")
  table.add("dataTask + data closure, split by hand", best[0] / 1e6, baseline: true)
  table.add("bytes(for:).lines, for try await", best[1] / 1e6)
  return table
}

/// Splits chunks into lines at `\n`, makes each a `String` and sums their lengths plus one.
///
/// `@unchecked Sendable`: URLSession calls a task's data closure serially, and `finish()` runs in
/// its completion closure, after the last.
final class LineSplitter: @unchecked Sendable {
  var pending: [UInt8] = []
  var total = 0

  func feed(_ chunk: Data) {
    chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var start = 0
      for index in 0..<bytes.count where bytes[index] == 0x0A {
        pending.append(contentsOf: bytes[start..<index])
        total &+= String(decoding: pending, as: UTF8.self).utf8.count &+ 1
        pending.removeAll(keepingCapacity: true)
        start = index + 1
      }
      pending.append(contentsOf: bytes[start...])
    }
  }

  func finish() -> Int {
    if !pending.isEmpty { total &+= String(decoding: pending, as: UTF8.self).utf8.count &+ 1 }
    return total
  }
}
