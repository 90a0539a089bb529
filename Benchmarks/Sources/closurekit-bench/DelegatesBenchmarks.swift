import ClosureKit
import ClosureKitFoundation
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

let delegatesSuite = Suite(name: "delegates") {
  saxBenchmark(megabytes: 10, rounds: 7)
  saxBenchmark(megabytes: 100, rounds: 3)
  saxPeakMemoryBenchmark(megabytes: 100)
  delegateSlotBenchmark()
}

/// A generated document of about `megabytes` MB: elements with attributes, text, comments and CDATA.
func makeBenchmarkDocument(megabytes: Int = 10) -> Data {
  var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n"
  xml.reserveCapacity(megabytes * 1_000_000 + 200)
  var index = 0
  while xml.utf8.count < megabytes * 1_000_000 {
    xml += "  <book id=\"\(index)\" lang=\"en\"><title>Title number \(index)</title>"
    xml += "<author>Author \(index % 97)</author><!-- note \(index) --><summary><![CDATA[a <b> c]]></summary></book>\n"
    index += 1
  }
  xml += "</catalog>\n"
  return Data(xml.utf8)
}

/// What both SAX consumers compute, so neither does less work than the other.
///
/// `@unchecked Sendable`: used by one thread at a time.
final class SAXTally: @unchecked Sendable {
  var elements = 0
  var characters = 0
  var comments = 0
  var cdata = 0
  var errors = 0

  /// Closures that count what they see into this tally: the callback form's consumer.
  var countingHandlers: XMLParserHandlers {
    XMLParserHandlers(
      didStartElement: { _, _, _, _ in self.elements &+= 1 },
      didEndElement: { _, _, _ in self.elements &+= 1 },
      foundCharacters: { self.characters &+= $0.utf8.count },
      foundCDATA: { self.cdata &+= $0.count },
      foundComment: { _ in self.comments &+= 1 }
    )
  }

  /// What the tally counted, to compare with an async consumer's ``SAXCount``.
  var count: SAXCount { SAXCount(elements: elements, characters: characters, comments: comments, cdata: cdata) }

  /// Sets every count back to 0, before a round.
  func reset() {
    elements = 0
    characters = 0
    comments = 0
    cdata = 0
  }
}

/// The baseline: the delegate a user would write by hand.
final class HandWrittenSAXDelegate: NSObject, XMLParserDelegate {
  let tally: SAXTally
  init(tally: SAXTally) { self.tally = tally }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    tally.elements &+= 1
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
  ) {
    tally.elements &+= 1
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { tally.characters &+= string.utf8.count }
  func parser(_ parser: XMLParser, foundComment comment: String) { tally.comments &+= 1 }
  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { tally.cdata &+= CDATABlock.count }
  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { tally.errors &+= 1 }
}

/// The Foundation baseline's parser: `XMLParser(stream:)`, which feeds libxml2 in pieces. (On Linux
/// `XMLParser(data:)` hands libxml2 the whole document at once, and libxml2 fails every document
/// over 10,000,000 bytes that way.)
func makeBaselineParser(_ document: Data) -> XMLParser {
  XMLParser(stream: InputStream(data: document))
}

/// SAX throughput: `ClosureXMLParser.parse(_:handlers:)` against a hand-written `XMLParserDelegate`,
/// on the same document, both parsing it without error.
func saxBenchmark(megabytes: Int, rounds: Int) {
  let document = makeBenchmarkDocument(megabytes: megabytes)
  var table = Table(
    "SAX parse of a \(document.count / 1_000_000) MB document (CPU time of the parsing thread)", unit: "ms")

  let baselineTally = SAXTally()
  let tally = SAXTally()
  let handlers = tally.countingHandlers
  // Rounds alternate between the two, so that load from other processes hits both alike.
  var baselineSamples: [Double] = []
  var adapterSamples: [Double] = []
  for _ in 0..<rounds {
    baselineSamples.append(
      threadCPUNanoseconds {
        let parser = makeBaselineParser(document)
        let delegate = HandWrittenSAXDelegate(tally: baselineTally)
        parser.delegate = delegate
        precondition(parser.parse() && parser.parserError == nil, "the baseline failed to parse the document")
      })
    adapterSamples.append(
      threadCPUNanoseconds {
        do {
          let outcome = try ClosureXMLParser.parse(document, handlers: handlers)
          precondition(outcome == .finished)
        } catch {
          preconditionFailure("ClosureXMLParser failed to parse the document: \(error)")
        }
      })
  }
  precondition(baselineTally.errors == 0, "the baseline reported errors")
  let baseline = baselineSamples.sorted()[baselineSamples.count / 2]
  let adapter = adapterSamples.sorted()[adapterSamples.count / 2]
  table.add("hand-written XMLParserDelegate, XMLParser(stream:)", baseline / 1e6, baseline: true)
  table.add("ClosureXMLParser.parse(_:handlers:)", adapter / 1e6)
  table.print()
  let size = Double(document.count) / 1e6
  print(
    "  throughput: baseline \(format(size / (baseline / 1e9))) MB/s, closures \(format(size / (adapter / 1e9))) MB/s"
  )
  precondition(
    tally.elements == baselineTally.elements && tally.characters == baselineTally.characters
      && tally.cdata == baselineTally.cdata && tally.comments == baselineTally.comments,
    "the closures and the baseline saw different events")
}

/// Peak resident memory of a process that parses a `megabytes` MB file, each way in a fresh child
/// process (`closurekit-bench --xml-peak VARIANT FILE`, which prints its peak resident set: VmHWM
/// on Linux, `getrusage`'s maximum resident set size on Apple platforms): an idle child, Foundation's `XMLParser(stream:)` on an `InputStream` of the
/// file, and `ClosureXMLParser.parse(contentsOf:)`.
func saxPeakMemoryBenchmark(megabytes: Int) {
  withBenchmarkDocumentFile(megabytes: megabytes) { url in
    var table = Table(
      "peak memory parsing a \(megabytes) MB file (maximum resident set of a child process)", unit: "MB")
    table.add("idle child process", peakInChildProcess("idle", url), baseline: true)
    table.add("XMLParser(stream:) + hand-written delegate", peakInChildProcess("foundation", url))
    table.add("ClosureXMLParser.parse(contentsOf:)", peakInChildProcess("closures", url))
    table.print()
  }
}

/// Writes the `megabytes` MB benchmark document to a temporary file, runs `body` with its URL and
/// deletes it; prints why and skips `body` if the file cannot be written.
func withBenchmarkDocumentFile(megabytes: Int, _ body: (URL) -> Void) {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("closurekit-bench-\(UUID().uuidString).xml")
  do {
    try makeBenchmarkDocument(megabytes: megabytes).write(to: url)
  } catch {
    print("  could not write \(url.path): \(error)")
    return
  }
  defer { try? FileManager.default.removeItem(at: url) }
  body(url)
}

/// Runs `closurekit-bench --xml-peak VARIANT FILE` and reads the megabytes it prints.
func peakInChildProcess(_ variant: String, _ url: URL) -> Double {
  numberFromChildProcess(["--xml-peak", variant, url.path])
}

/// The child-process side of ``peakInChildProcess(_:_:)``: parses the file, prints its peak in MB.
func xmlPeakProbe(_ variant: String, _ path: String) async {
  let url = URL(fileURLWithPath: path)
  let tally = SAXTally()
  switch variant {
  case "idle":
    break
  case "foundation":
    guard let stream = InputStream(url: url) else { exit(1) }
    let parser = XMLParser(stream: stream)
    let delegate = HandWrittenSAXDelegate(tally: tally)
    parser.delegate = delegate
    guard parser.parse(), tally.errors == 0 else { exit(1) }
  case "closures":
    let handlers = XMLParserHandlers(
      didStartElement: { _, _, _, _ in tally.elements &+= 1 }, foundCharacters: { tally.characters &+= $0.utf8.count })
    guard (try? ClosureXMLParser.parse(contentsOf: url, handlers: handlers)) == .finished else { exit(1) }
  case "holding", "events":
    await xmlEventsPeakProbe(variant, url)
  default:
    exit(1)
  }
  #if canImport(Darwin)
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    let bytes = Double(usage.ru_maxrss)  // bytes on Darwin
  #else
    // VmHWM, the peak resident set of this process's own memory. (`getrusage`'s `ru_maxrss` is
    // carried over from the parent across fork and exec on Linux: it would report the parent's.)
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    let bytes = (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) * 1024  // kB
  #endif
  print(bytes / 1e6)
}

/// The CPU time the current thread spends in `body`: unlike wall time, it does not count the time
/// the thread waits for a core that other processes hold.
func threadCPUNanoseconds(_ body: () -> Void) -> Double {
  var start = timespec()
  var end = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
  body()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
  return Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
}

/// An owner for owner-bound benchmark handlers.
final class BenchmarkOwner: Sendable {}

/// The cost of one call through a `Delegate` slot against a plain stored closure.
func delegateSlotBenchmark() {
  let iterations = 2_000_000
  var table = Table("one delegate call")
  let counter = Counter()
  let plain: @Sendable (Int) -> Int = {
    counter.value &+= $0; return $0
  }
  table.add(
    "stored closure",
    nanoseconds(iterations: iterations) { count in for value in 0..<count { blackHole(plain(value)) } }, baseline: true)
  let slot = Delegate<Int, Int>()
  slot.delegate {
    counter.value &+= $0; return $0
  }
  table.add(
    "Delegate slot", nanoseconds(iterations: iterations) { count in for value in 0..<count { blackHole(slot(value)) } })
  let owner = BenchmarkOwner()
  let ownerSlot = Delegate<Int, Int>()
  ownerSlot.delegate(on: owner) { _, value in
    counter.value &+= value; return value
  }
  table.add(
    "Delegate slot with owner",
    nanoseconds(iterations: iterations) { count in for value in 0..<count { blackHole(ownerSlot(value)) } })
  table.print()
}
