#if canImport(Darwin)
#else
  import CLibXML2

  /// The C callbacks libxml2 calls during a ``SAXSession`` parse.
  ///
  /// Each one recovers the session from the user-data pointer and checks every pointer libxml2
  /// passes before reading it: a `NULL` name, target, value or attribute array is skipped or read
  /// as `nil` (libxml2 passes `NULL` for a processing instruction without data, an attribute list
  /// of an element without attributes, a declaration without a default value or public id).
  /// DTD declarations other than entities reach no callback: libxml2 skips an attribute, element
  /// or notation declaration whose callback is unset (and frees what it parsed).
  enum SAXTrampolines {
    /// The session behind libxml2's user-data pointer.
    @inline(__always)
    static func session(_ pointer: UnsafeMutableRawPointer?) -> SAXSession? {
      guard let pointer else { return nil }
      return Unmanaged<SAXSession>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// A NUL-terminated libxml2 string as a Swift string.
    @inline(__always)
    static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
      guard let pointer else { return nil }
      return String(cString: pointer)
    }

    /// The handler table.
    static func makeHandler() -> xmlSAXHandler {
      var sax = xmlSAXHandler()
      sax.initialized = UInt32(XML_SAX2_MAGIC)
      sax.startDocument = startDocument
      sax.endDocument = endDocument
      // SAX2 callbacks in both modes: libxml2's push parser always takes its SAX2 path. Without
      // namespace processing, names are reported whole and namespace errors as warnings.
      sax.startElementNs = startElementNs
      sax.endElementNs = endElementNs
      sax.characters = characters
      sax.ignorableWhitespace = characters  // the same function: libxml2 then never calls it
      sax.cdataBlock = cdataBlock
      sax.comment = comment
      sax.processingInstruction = processingInstruction
      sax.internalSubset = internalSubset
      sax.entityDecl = entityDecl
      sax.unparsedEntityDecl = unparsedEntityDecl
      sax.getEntity = getEntity
      sax.getParameterEntity = getParameterEntity
      sax.serror = error
      // Left unset on purpose: externalSubset and resolveEntity (no DTD or entity is ever loaded),
      // reference (an entity's content is delivered as its events), attributeDecl, elementDecl,
      // notationDecl (skipped), warning, error, fatalError (serror receives all of them).
      return sax
    }

    static let startDocument: startDocumentSAXFunc = { pointer in
      session(pointer)?.startDocument()
    }

    static let endDocument: endDocumentSAXFunc = { pointer in
      session(pointer)?.endDocument()
    }

    static let error: xmlStructuredErrorFunc = { pointer, error in
      guard let error else { return }
      // libxml2's DTD validity errors and warnings (`xmlValidityError`: a duplicated token in an
      // attribute's enumeration, say) pass their parser context's `vctxt.userData` instead of its
      // `userData`, and that is the parser context itself: then the session is that context's
      // `userData` (this session's, also in the contexts libxml2 makes for an entity's text).
      // Taking the context for the session read it as one and crashed (found by the fuzzer).
      var owner = pointer
      if let pointer, let raiser = error.pointee.ctxt, pointer == raiser {
        owner = raiser.assumingMemoryBound(to: xmlParserCtxt.self).pointee.userData
      }
      guard let session = session(owner) else { return }
      session.report(error)
    }

    static let startElementNs: startElementNsSAX2Func = {
      pointer, localName, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
      guard let session = session(pointer), !session.isFailed, let local = string(localName) else { return }
      let processing = session.processingNamespaces
      let qualifiedName = prefix.map { String(cString: $0) + ":" + local } ?? local
      var dictionary: [String: String] = [:]
      if let attributes, attributeCount > 0 {
        dictionary.reserveCapacity(Int(attributeCount))
        for index in 0..<Int(attributeCount) {
          // Five pointers per attribute: local name, prefix, URI, value start, value end.
          let base = index * 5
          guard let name = attributes[base] else { continue }
          var key = String(cString: name)
          if let prefix = attributes[base + 1] { key = String(cString: prefix) + ":" + key }
          var value = ""
          if let start = attributes[base + 3], let end = attributes[base + 4], end >= start {
            value = session.attributeValue(UnsafeBufferPointer(start: start, count: end - start))
          }
          dictionary[key] = value
        }
      }
      if !processing, let namespaces, namespaceCount > 0 {
        // Without namespace processing a declaration is an attribute like any other.
        for index in 0..<Int(namespaceCount) {
          let key = namespaces[2 * index].map { "xmlns:" + String(cString: $0) } ?? "xmlns"
          dictionary[key] = string(namespaces[2 * index + 1]) ?? ""
        }
      }
      if processing {
        session.startElement(
          local, namespaceURI: string(uri) ?? "", qualifiedName: qualifiedName, attributes: dictionary)
      } else {
        session.startElement(qualifiedName, namespaceURI: nil, qualifiedName: nil, attributes: dictionary)
      }
    }

    static let endElementNs: endElementNsSAX2Func = { pointer, localName, prefix, uri in
      guard let session = session(pointer), !session.isFailed, let local = string(localName) else { return }
      let qualifiedName = prefix.map { String(cString: $0) + ":" + local } ?? local
      if session.processingNamespaces {
        session.endElement(local, namespaceURI: string(uri) ?? "", qualifiedName: qualifiedName)
      } else {
        session.endElement(qualifiedName, namespaceURI: nil, qualifiedName: nil)
      }
    }

    static let characters: charactersSAXFunc = { pointer, bytes, count in
      guard let session = session(pointer), !session.isFailed, let bytes, count > 0 else { return }
      session.characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
    }

    static let cdataBlock: cdataBlockSAXFunc = { pointer, bytes, count in
      guard let session = session(pointer), !session.isFailed, let bytes, count > 0 else { return }
      session.cdata(UnsafeBufferPointer(start: bytes, count: Int(count)))
    }

    static let comment: commentSAXFunc = { pointer, text in
      guard let session = session(pointer), !session.isFailed else { return }
      session.comment(string(text) ?? "")
    }

    static let processingInstruction: processingInstructionSAXFunc = { pointer, target, data in
      guard let session = session(pointer), !session.isFailed, let target = string(target) else { return }
      session.processingInstruction(target, data: string(data))
    }

    static let internalSubset: internalSubsetSAXFunc = { pointer, name, externalID, systemID in
      guard let session = session(pointer), !session.isFailed, let context = session.context else { return }
      // Creates the DTD node the entity declarations are stored in; loads nothing.
      xmlSAX2InternalSubset(context, name, externalID, systemID)
    }

    static let entityDecl: entityDeclSAXFunc = { pointer, name, type, publicID, systemID, content in
      guard let session = session(pointer), !session.isFailed, let context = session.context, name != nil else {
        return
      }
      xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
    }

    static let unparsedEntityDecl: unparsedEntityDeclSAXFunc = { pointer, name, publicID, systemID, notation in
      guard let session = session(pointer), !session.isFailed, let context = session.context, name != nil else {
        return
      }
      xmlSAX2UnparsedEntityDecl(context, name, publicID, systemID, notation)
    }

    static let getEntity: getEntitySAXFunc = { pointer, name in
      guard let session = session(pointer), let name else { return nil }
      return session.getEntity(name)
    }

    static let getParameterEntity: getParameterEntitySAXFunc = { pointer, name in
      guard let session = session(pointer), let name else { return nil }
      return session.getParameterEntity(name)
    }
  }

  /// Process-wide libxml2 set-up.
  enum LibXML2 {
    /// `xmlInitParser` once per process, before the first parser (libxml2 asks this of threaded
    /// programs; Foundation's `XMLParser` calls it too, which is harmless).
    private static let initialized: Bool = {
      xmlInitParser()
      return true
    }()

    static func initializeOnce() { _ = initialized }
  }
#endif
