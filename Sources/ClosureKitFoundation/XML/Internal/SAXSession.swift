#if canImport(Darwin)
#else
  import CLibXML2
  import Foundation

  /// One parse through libxml2's SAX2 push parser: the parser context, the closures, and the
  /// state of the first failure. Linux only (Apple platforms use Foundation's `XMLParser`).
  ///
  /// libxml2 calls the C trampolines of ``SAXTrampolines`` with the session as user data. Every
  /// pointer it passes is checked before use; a callback never throws, never stops the parser and
  /// never calls back into the parser's input machinery: a failure (a fatal error, a namespace error
  /// when namespaces are processed, a handler's error, the entity budget running out) is recorded,
  /// every later callback returns at once, and ``feed(_:)`` stops the parser with `xmlStopParser`
  /// after `xmlParseChunk` has returned.
  final class SAXSession {
    /// How many bytes one `xmlParseChunk` call receives.
    static let chunkSize = 65_536
    /// Entity replacement text the document may expand to before any byte is parsed.
    static let entityBudgetBase = 1_000_000
    /// Bytes of entity replacement text allowed per byte of document fed so far.
    static let entityBudgetRatio = 10

    /// libxml2's `XML_WAR_*` codes, some of which it raises at error level (a namespace name that
    /// is not a URI, an undeclared entity in a document whose external subset was not read).
    static let warningCodes: Set<Int32> = [
      Int32(XML_WAR_UNDECLARED_ENTITY.rawValue), Int32(XML_WAR_CATALOG_PI.rawValue),
      Int32(XML_WAR_UNKNOWN_VERSION.rawValue), Int32(XML_WAR_LANG_VALUE.rawValue), Int32(XML_WAR_NS_URI.rawValue),
      Int32(XML_WAR_NS_URI_RELATIVE.rawValue), Int32(XML_WAR_SPACE_VALUE.rawValue),
      Int32(XML_WAR_NS_COLUMN.rawValue), Int32(XML_WAR_ENTITY_REDEFINED.rawValue),
    ]

    /// The closures: the one handler storage of both front ends (``XMLParserAdapter`` holds it too).
    /// A `let` struct in a final class, so each callback is one load and one call.
    let handlers: XMLParserHandlers
    /// Whether element names are split by namespace and namespace errors fail the parse.
    let processingNamespaces: Bool

    /// The push parser; `nil` before the first byte and after ``close()``.
    private(set) var context: xmlParserCtxtPtr?
    /// The first failure: an ``XMLParsingError`` or a handler's error. Nothing is delivered after it.
    private(set) var failure: (any Error)?
    /// Set with ``failure``: the one flag every callback checks first.
    private(set) var isFailed = false
    /// Whether libxml2 started the document (an empty input never does).
    private(set) var didStart = false
    /// Whether libxml2 reached the end of the document.
    private(set) var didEnd = false
    /// Bytes handed to libxml2 so far.
    private(set) var bytesFed = 0
    /// Bytes of entity replacement text handed out so far (nested expansions count at every level).
    private(set) var entityBytes = 0
    /// The first bytes, kept until the encoding declaration has been checked against a BOM.
    private var head: [UInt8] = []
    /// Whether the BOM check ran.
    private var headChecked = false
    /// Text of the entity reference being expanded, held until the expansion has succeeded (see
    /// ``characters(_:)``); dropped if it fails.
    ///
    /// `@exclusivity(unchecked)`, as ``holdsEntityText``: the session is confined to the thread that
    /// parses (it is not `Sendable`) and no handler can reach it, so no access can overlap another;
    /// the dynamic check cost a tenth of the parse (suite `delegates`, ClosureXMLParser.parse).
    @exclusivity(unchecked) private var entityText = ""
    /// Whether a reference was looked up since held text was last delivered: only then does an
    /// event check for held text (a document without entities pays one flag per event).
    @exclusivity(unchecked) private var holdsEntityText = false

    init(_ handlers: XMLParserHandlers, processingNamespaces: Bool) {
      self.handlers = handlers
      self.processingNamespaces = processingNamespaces
    }

    deinit { close() }

    /// Frees the parser and the document libxml2 kept the DTD's entities in.
    func close() {
      guard let context else { return }
      if let document = context.pointee.myDoc {
        context.pointee.myDoc = nil
        xmlFreeDoc(document)
      }
      xmlFreeParserCtxt(context)
      self.context = nil
    }

    // MARK: - Feeding

    /// Parses the next bytes of the document; returns `false` once the parse has failed (feed no more).
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
      guard !isFailed else { return false }
      var offset = 0
      if !headChecked {
        let take = min(bytes.count, XMLDeclarationCheck.headLength - head.count)
        head.append(contentsOf: bytes.prefix(take))
        if head.count >= XMLDeclarationCheck.headLength || XMLDeclarationCheck.isComplete(head) {
          checkHead()
        }
        guard !isFailed else { return false }
      }
      if context == nil {
        guard !bytes.isEmpty else { return true }
        let first = min(4, bytes.count)  // enough for libxml2 to detect the encoding
        guard createContext(UnsafeRawBufferPointer(rebasing: bytes[0..<first])) else { return false }
        offset = first
        bytesFed += first
      }
      while offset < bytes.count, !isFailed {
        let end = min(bytes.count, offset + Self.chunkSize)
        parseChunk(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), terminate: false)
        bytesFed += end - offset
        offset = end
      }
      return !isFailed
    }

    /// Ends the document: returns the outcome, or throws the first failure.
    func finish() throws -> XMLParserHandlers.Outcome {
      if !headChecked && !isFailed { checkHead() }
      if !isFailed {
        if context == nil {
          fail(XMLParsingError(code: .emptyDocument, line: 1, column: 1))
        } else {
          parseChunk(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        }
      }
      if !isFailed, let context {
        // A failure libxml2 recorded without an error callback reaching us.
        if context.pointee.wellFormed == 0 || !didEnd {
          fail(XMLParsingError(code: didStart ? .unknown : .emptyDocument, line: line, column: column))
        }
      }
      if !isFailed, holdsEntityText { deliverEntityText() }
      if !isFailed {
        do { try handlers.didEndDocument?() } catch { fail(error) }
      }
      close()
      if let failure {
        if failure is XMLParserHandlers.Stop { return .stopped }
        throw failure
      }
      return .finished
    }

    private func checkHead() {
      headChecked = true
      if let (line, column) = XMLDeclarationCheck.encodingContradictingBOM(in: head) {
        fail(XMLParsingError(code: .encodingMismatch, line: line, column: column))
      }
      head = []
    }

    private func createContext(_ first: UnsafeRawBufferPointer) -> Bool {
      LibXML2.initializeOnce()
      var sax = SAXTrampolines.makeHandler()
      let me = Unmanaged.passUnretained(self).toOpaque()
      let created = withErrorChannel {
        xmlCreatePushParserCtxt(
          &sax, me, first.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(first.count), nil)
      }
      guard let created else {
        fail(XMLParsingError(code: .outOfMemory, line: 1, column: 1))
        return false
      }
      context = created
      // No network, no external DTD or entity, no entity substitution by libxml2 (the SAX callbacks
      // deliver an internal entity's content), no validation, whatever the process-wide defaults say.
      xmlCtxtUseOptions(created, Int32(XML_PARSE_NONET.rawValue))
      created.pointee.replaceEntities = 0
      created.pointee.loadsubset = 0
      created.pointee.validate = 0
      created.pointee.keepBlanks = 1
      created.pointee.recovery = 0
      return !isFailed
    }

    private func parseChunk(_ chunk: UnsafeRawBufferPointer, terminate: Bool) {
      guard let context else { return }
      withErrorChannel {
        _ = xmlParseChunk(
          context, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count), terminate ? 1 : 0)
      }
      if isFailed {
        // Outside every callback: libxml2 is back in its own loop, so stopping cannot pull an input
        // out from under a callback (an encoding switch, an entity being expanded).
        xmlStopParser(context)
      }
    }

    /// Runs `body` with this thread's libxml2 structured-error handler pointing at this session,
    /// so errors raised without a parser context (character conversion, I/O) reach it instead of
    /// standard error; the previous handler is restored afterwards (nested parses work).
    private func withErrorChannel<Result>(_ body: () -> Result) -> Result {
      let handler = __xmlStructuredError()
      let handlerContext = __xmlStructuredErrorContext()
      let savedHandler = handler?.pointee
      let savedContext = handlerContext?.pointee
      xmlSetStructuredErrorFunc(Unmanaged.passUnretained(self).toOpaque(), SAXTrampolines.error)
      defer { xmlSetStructuredErrorFunc(savedContext ?? nil, savedHandler ?? nil) }
      return body()
    }

    // MARK: - Failure

    /// The line of the parser's current input (1-based).
    var line: Int { Int(context?.pointee.input?.pointee.line ?? 1) }
    /// The column of the parser's current input (1-based).
    var column: Int { Int(context?.pointee.input?.pointee.col ?? 1) }

    /// Records the first failure; every later callback is ignored.
    func fail(_ error: any Error) {
      guard !isFailed else { return }
      isFailed = true
      failure = error
      entityText = ""  // the text of a failed expansion is never delivered
      holdsEntityText = false
      // A plain flag libxml2 reads before each SAX call: no input is freed or switched here.
      context?.pointee.disableSAX = 1
    }

    /// Runs a handler, recording what it throws.
    @inline(__always)
    func deliver(_ body: () throws -> Void) {
      do { try body() } catch { fail(error) }
    }

    // MARK: - Callbacks (called by the trampolines)

    func startDocument() {
      guard !isFailed, let context else { return }
      didStart = true
      xmlSAX2StartDocument(context)  // the document that holds the DTD's entity declarations
      guard let didStartDocument = handlers.didStartDocument else { return }
      deliver(didStartDocument)
    }

    func endDocument() {
      didEnd = true
    }

    func report(_ error: UnsafePointer<xmlError>) {
      guard !isFailed else { return }
      let record = error.pointee
      let code = XMLParsingError.Code(rawValue: Int(record.code))
      // Fatal errors end the parse, and so do namespace errors when namespaces are processed;
      // libxml2's warnings, its `XML_WAR_*` codes at any level, and the other recoverable errors
      // (a redeclared predefined entity) are warnings: libxml2 goes on and calls the document
      // well-formed.
      let isFatal =
        !Self.warningCodes.contains(record.code)
        && (record.level == XML_ERR_FATAL
          || (processingNamespaces && record.level == XML_ERR_ERROR
            && record.domain == Int32(XML_FROM_NAMESPACE.rawValue)))
      let position = XMLParsingError(code: code, line: line, column: column)
      if isFatal {
        // Raised by the document itself, after the expansion of any held text had succeeded.
        if holdsEntityText, (context?.pointee.depth ?? 0) == 0 { deliverEntityText() }
        fail(position)
      } else if let foundWarning = handlers.foundWarning {
        deliver { try foundWarning(position) }
      }
    }

    /// Counts `entity`'s replacement text against the budget; `nil` (no entity) once it is spent.
    func budget(_ entity: xmlEntityPtr?) -> xmlEntityPtr? {
      guard !isFailed else { return nil }
      guard let entity else { return nil }
      if entity.pointee.etype != XML_INTERNAL_PREDEFINED_ENTITY {
        entityBytes += Int(max(0, entity.pointee.length))
        if entityBytes > Self.entityBudgetBase + Self.entityBudgetRatio * bytesFed {
          fail(XMLParsingError(code: .entityExpansionLimit, line: line, column: column))
          return nil
        }
      }
      return entity
    }

    func getEntity(_ name: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
      guard !isFailed, let context else { return nil }
      // A reference of the document itself: any reference before it has expanded.
      if holdsEntityText, context.pointee.depth == 0 {
        deliverEntityText()
        guard !isFailed else { return nil }
      }
      holdsEntityText = true
      return budget(xmlSAX2GetEntity(context, name))
    }

    func getParameterEntity(_ name: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
      guard !isFailed, let context else { return nil }
      return budget(xmlSAX2GetParameterEntity(context, name))
    }

    /// An attribute value as the document means it. Without entity substitution libxml2 hands
    /// over a value that still holds references: `&name;` for a declared entity and `&#38;` for
    /// each literal `&` (also from `&amp;`). Such a value is decoded as libxml2's own tree builder
    /// does it, with `xmlStringLenDecodeEntities`, whose entity look-ups go through the budget.
    func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
      guard let base = bytes.baseAddress, bytes.contains(UInt8(ascii: "&")), let context else {
        return String(decoding: bytes, as: UTF8.self)
      }
      guard
        let decoded = xmlStringLenDecodeEntities(
          context, base, Int32(clamping: bytes.count), Int32(XML_SUBSTITUTE_REF), 0, 0, 0)
      else {
        return String(decoding: bytes, as: UTF8.self)
      }
      let value = String(cString: decoded)
      // libxml2's own deallocator (`xmlFree` is a mutable C global; `xmlMemGet` reads it).
      var free: xmlFreeFunc?
      xmlMemGet(&free, nil, nil, nil)
      free?(decoded)
      return value
    }

    func startElement(_ name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
      if holdsEntityText {
        deliverEntityText()
        guard !isFailed else { return }
      }
      guard let didStartElement = handlers.didStartElement else { return }
      deliver { try didStartElement(name, namespaceURI, qualifiedName, attributes) }
    }

    func endElement(_ name: String, namespaceURI: String?, qualifiedName: String?) {
      if holdsEntityText {
        deliverEntityText()
        guard !isFailed else { return }
      }
      guard let didEndElement = handlers.didEndElement else { return }
      deliver { try didEndElement(name, namespaceURI, qualifiedName) }
    }

    /// Delivers text, except that the text of an entity reference (the parser's `depth` is above
    /// zero while it expands one) is held until the expansion has succeeded: until the next
    /// element, comment, processing instruction or CDATA section, the next text or reference of
    /// the document itself, an error the document raises, or its end. An expansion that fails (an
    /// entity loop, the expansion budget) delivers none of its text, as `XMLParser` delivers none.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard let foundCharacters = handlers.foundCharacters else { return }
      let text = String(decoding: bytes, as: UTF8.self)
      if holdsEntityText {
        if let context, context.pointee.depth > 0 {
          entityText += text
          return
        }
        deliverEntityText()
        guard !isFailed else { return }
      }
      deliver { try foundCharacters(text) }
    }

    /// Delivers the held text of an entity reference that has expanded.
    private func deliverEntityText() {
      let text = entityText
      entityText = ""
      holdsEntityText = false
      guard !text.isEmpty, let foundCharacters = handlers.foundCharacters else { return }
      deliver { try foundCharacters(text) }
    }

    func cdata(_ bytes: UnsafeBufferPointer<UInt8>) {
      if holdsEntityText {
        deliverEntityText()
        guard !isFailed else { return }
      }
      guard let foundCDATA = handlers.foundCDATA else { return }
      let data = Data(bytes)
      deliver { try foundCDATA(data) }
    }

    func comment(_ text: String) {
      if holdsEntityText {
        deliverEntityText()
        guard !isFailed else { return }
      }
      guard let foundComment = handlers.foundComment else { return }
      deliver { try foundComment(text) }
    }

    func processingInstruction(_ target: String, data: String?) {
      if holdsEntityText {
        deliverEntityText()
        guard !isFailed else { return }
      }
      guard let foundProcessingInstruction = handlers.foundProcessingInstruction else { return }
      deliver { try foundProcessingInstruction(target, data) }
    }
  }

  @available(*, unavailable)
  extension SAXSession: Sendable {}
#endif
