import ClosureKit
import ClosureKitFoundation
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The XML snippet the chapter parses: a small feed with a namespace, CDATA and a comment.
private let feedXML = """
  <?xml version="1.0" encoding="UTF-8"?>
  <feed xmlns="http://www.w3.org/2005/Atom" xmlns:ck="urn:closurekit">
    <!-- two entries -->
    <entry ck:id="1"><title>Closures instead of delegates</title></entry>
    <entry ck:id="2"><title><![CDATA[KeepAlive & friends]]></title></entry>
  </feed>
  """

/// The same feed with a mistake on line 4: `</titel>` does not close `<title>`.
private let brokenXML = """
  <?xml version="1.0" encoding="UTF-8"?>
  <feed>
    <entry>
      <title>Oops</titel>
    </entry>
  </feed>
  """

extension Chapter {
  static let delegates = Chapter(
    name: "delegates",
    summary: "Delegates as closures: XMLParser with closures, typed errors with line and column"
  ) {
    print("1. Parse a feed with closures (only the closures that are set run):")
    var text = ""
    var titles: [String] = []
    var handlers = XMLParserHandlers()
    handlers.didStartElement = { name, namespaceURI, _, attributes in
      if name == "entry" { print("  entry \(attributes["ck:id"] ?? "?") in namespace \(namespaceURI ?? "none")") }
      text = ""
    }
    handlers.foundCharacters = { text += $0 }
    handlers.foundCDATA = { text += String(decoding: $0, as: UTF8.self) }
    handlers.foundComment = { print("  comment:\($0)") }
    handlers.didEndElement = { name, _, _ in
      if name == "title" { titles.append(text) }
    }
    try XMLParser.parse(Data(feedXML.utf8), processingNamespaces: true, handlers: handlers)
    print("  titles: \(titles)")

    print("\n2. A malformed document throws the first error, with its line and column:")
    var seen: [String] = []
    do {
      try XMLParser.parse(
        Data(brokenXML.utf8), handlers: XMLParserHandlers(didStartElement: { name, _, _, _ in seen.append(name) }))
    } catch let error as XMLParsingError {
      print("  error: \(error)")
      print("  line \(error.line), column \(error.column): \(brokenXML.split(separator: "\n")[error.line - 1])")
      print("  elements seen before the error, and none after it: \(seen)")
    }

    print("\n3. A handler stops the parse early by throwing XMLParserHandlers.Stop:")
    let outcome = try XMLParser.parse(
      Data(feedXML.utf8),
      handlers: XMLParserHandlers(didStartElement: { name, _, _, _ in
        if name == "entry" { throw XMLParserHandlers.Stop() }
      }))
    print("  outcome: \(outcome)")

    print("\n4. The same events as an async sequence:")
    var kinds: [String] = []
    for try await event in XMLParser.events(in: Data("<a><b>hi</b></a>".utf8)) {
      switch event {
      case .startElement(let name, _, _, _): kinds.append("<\(name)>")
      case .endElement(let name, _, _): kinds.append("</\(name)>")
      case .characters(let characters): kinds.append(characters)
      default: break
      }
    }
    print("  \(kinds.joined(separator: " "))")

    print("\n5. A Delegate slot answers nil when unset, so the caller keeps its default:")
    let shouldArchive = Delegate<String, Bool>()
    print("  unset -> \(shouldArchive("report.txt") ?? true) (the default)")
    shouldArchive.delegate { name in name.hasSuffix(".log") }
    print("  set   -> \(shouldArchive("report.txt") ?? true)")
  }
}
