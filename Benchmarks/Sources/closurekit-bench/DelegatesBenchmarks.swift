import ClosureKit
import ClosureKitFoundation
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

let delegatesSuite = Suite(name: "delegates") {
  saxBenchmark()
  for observers in [1, 10, 100] {
    notificationBenchmark(observers: observers)
  }
  delegateSlotBenchmark()
}

/// A generated document of about 10 MB: elements with attributes, text, comments and CDATA.
func makeBenchmarkDocument() -> Data {
  var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n"
  var index = 0
  while xml.utf8.count < 10_000_000 {
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
}

/// SAX throughput: `XMLParser.parse(_:handlers:)` against a hand-written `XMLParserDelegate`.
func saxBenchmark() {
  let document = makeBenchmarkDocument()
  var table = Table(
    "SAX parse of a \(document.count / 1_000_000) MB document (CPU time of the parsing thread)", unit: "ms")

  let baselineTally = SAXTally()
  let tally = SAXTally()
  let handlers = XMLParserHandlers(
    didStartElement: { _, _, _, _ in tally.elements &+= 1 },
    didEndElement: { _, _, _ in tally.elements &+= 1 },
    foundCharacters: { tally.characters &+= $0.utf8.count },
    foundCDATA: { tally.cdata &+= $0.count },
    foundComment: { _ in tally.comments &+= 1 }
  )
  // Rounds alternate between the two, so that load from other processes hits both alike.
  var baselineSamples: [Double] = []
  var adapterSamples: [Double] = []
  for _ in 0..<7 {
    baselineSamples.append(
      threadCPUNanoseconds {
        let parser = XMLParser(data: document)
        let delegate = HandWrittenSAXDelegate(tally: baselineTally)
        parser.delegate = delegate
        blackHole(parser.parse())
      })
    adapterSamples.append(
      threadCPUNanoseconds {
        blackHole(try? XMLParser.parse(document, handlers: handlers))
      })
  }
  let baseline = baselineSamples.sorted()[baselineSamples.count / 2]
  let adapter = adapterSamples.sorted()[adapterSamples.count / 2]
  table.add("hand-written XMLParserDelegate", baseline / 1e6, baseline: true)
  table.add("XMLParser.parse(_:handlers:)", adapter / 1e6)
  table.print()
  let megabytes = Double(document.count) / 1e6
  print(
    "  throughput: baseline \(format(megabytes / (baseline / 1e9))) MB/s, adapter \(format(megabytes / (adapter / 1e9))) MB/s"
  )
  precondition(
    tally.elements == baselineTally.elements && tally.characters == baselineTally.characters,
    "the adapter and the baseline saw different events")
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

/// One post to N observers: ClosureKit's tokens against Foundation's own block observers.
func notificationBenchmark(observers: Int) {
  let iterations = 200_000 / observers
  var table = Table("NotificationCenter.post to \(observers) observer(s)")
  let counter = Counter()
  let name = Notification.Name("closurekit.bench.delegates")

  let foundationCenter = NotificationCenter()
  let tokens = (0..<observers).map { _ in
    foundationCenter.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 }
  }
  table.add(
    "Foundation block observers",
    nanoseconds(iterations: iterations) { foundationCenter.post(name: name, object: nil) },
    baseline: true
  )
  for token in tokens { foundationCenter.removeObserver(token) }

  let center = NotificationCenter()
  let bag = SubscriptionBag()
  for _ in 0..<observers { center.addObserver(forName: name) { _ in counter.value &+= 1 }.store(in: bag) }
  table.add(
    "addObserver(forName:) tokens", nanoseconds(iterations: iterations) { center.post(name: name, object: nil) })
  bag.cancelAll()

  let ownerCenter = NotificationCenter()
  let owner = BenchmarkOwner()
  let ownerBag = SubscriptionBag()
  for _ in 0..<observers {
    ownerCenter.addObserver(forName: name, owner: owner) { _, _ in counter.value &+= 1 }.store(in: ownerBag)
  }
  table.add(
    "addObserver(forName:owner:) tokens",
    nanoseconds(iterations: iterations) { ownerCenter.post(name: name, object: nil) })
  ownerBag.cancelAll()
  table.print()
  blackHole(counter.value)
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
  table.add("stored closure", nanoseconds(iterations: iterations) { blackHole(plain(1)) }, baseline: true)
  let slot = Delegate<Int, Int>()
  slot.delegate {
    counter.value &+= $0; return $0
  }
  table.add("Delegate slot", nanoseconds(iterations: iterations) { blackHole(slot(1)) })
  let owner = BenchmarkOwner()
  let ownerSlot = Delegate<Int, Int>()
  ownerSlot.delegate(on: owner) { _, value in
    counter.value &+= value; return value
  }
  table.add("Delegate slot with owner", nanoseconds(iterations: iterations) { blackHole(ownerSlot(1)) })
  table.print()
}
