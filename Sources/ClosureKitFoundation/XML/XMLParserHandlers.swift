public import Foundation

/// The closures that stand for the methods of `XMLParserDelegate`: set the ones you need.
///
/// ```swift
/// var handlers = XMLParserHandlers()
/// handlers.didStartElement = { name, namespaceURI, qualifiedName, attributes in print("<\(name)>") }
/// handlers.foundCharacters = { text in print(text) }
/// try ClosureXMLParser.parse(Data("<a>hi</a>".utf8), handlers: handlers)
/// ```
///
/// An unset closure means the event is skipped, which is `XMLParser`'s own default. Any closure
/// may throw: the parse stops at once, no further closure runs, and the parse call rethrows the
/// error, except ``Stop``, which ends the parse early without an error.
///
/// > Important: The closures run synchronously on the thread (or, for a byte sequence, in the
/// > task) that called `ClosureXMLParser.parse(_:processingNamespaces:handlers:)`, in document
/// > order, and are released when that call returns.
public struct XMLParserHandlers {
  /// Thrown by a handler to stop the parse without an error: the parse call returns
  /// ``Outcome/stopped``.
  ///
  /// ```swift
  /// handlers.didStartElement = { name, _, _, _ in if name == "found" { throw XMLParserHandlers.Stop() } }
  /// ```
  public struct Stop: Error, Sendable {
    /// Creates the stop signal.
    ///
    /// ```swift
    /// throw XMLParserHandlers.Stop()
    /// ```
    public init() {}
  }

  /// How a parse ended when it did not throw.
  ///
  /// ```swift
  /// if try ClosureXMLParser.parse(data, handlers: handlers) == .stopped { print("stopped early") }
  /// ```
  public enum Outcome: Sendable, Hashable {
    /// The whole document was parsed.
    case finished
    /// A handler threw ``XMLParserHandlers/Stop``.
    case stopped
  }

  /// Runs once, before any other closure.
  ///
  /// ```swift
  /// handlers.didStartDocument = { print("parsing") }
  /// ```
  public var didStartDocument: (() throws -> Void)?
  /// Runs once, after the last closure, when the document parsed without error.
  ///
  /// ```swift
  /// handlers.didEndDocument = { print("done") }
  /// ```
  public var didEndDocument: (() throws -> Void)?
  /// Runs for each start tag: the local name (the whole name when namespaces are not processed),
  /// the namespace URI and the qualified name (both `nil` when namespaces are not processed), and
  /// the attributes.
  ///
  /// ```swift
  /// handlers.didStartElement = { name, namespaceURI, qualifiedName, attributes in print(name, attributes) }
  /// ```
  public var didStartElement:
    (
      (_ name: String, _ namespaceURI: String?, _ qualifiedName: String?, _ attributes: [String: String]) throws -> Void
    )?
  /// Runs for each end tag, with the same names as ``didStartElement``.
  ///
  /// ```swift
  /// handlers.didEndElement = { name, _, _ in print("</\(name)>") }
  /// ```
  public var didEndElement: ((_ name: String, _ namespaceURI: String?, _ qualifiedName: String?) throws -> Void)?
  /// Runs for each run of text; one text node may arrive in several pieces.
  ///
  /// ```swift
  /// var text = ""
  /// handlers.foundCharacters = { text += $0 }
  /// ```
  public var foundCharacters: ((_ text: String) throws -> Void)?
  /// Runs for each CDATA section, with its raw bytes.
  ///
  /// ```swift
  /// handlers.foundCDATA = { data in print(String(decoding: data, as: UTF8.self)) }
  /// ```
  public var foundCDATA: ((_ data: Data) throws -> Void)?
  /// Runs for each comment.
  ///
  /// ```swift
  /// handlers.foundComment = { comment in print("<!--\(comment)-->") }
  /// ```
  public var foundComment: ((_ comment: String) throws -> Void)?
  /// Runs for each processing instruction other than the XML declaration.
  ///
  /// ```swift
  /// handlers.foundProcessingInstruction = { target, data in print(target, data ?? "") }
  /// ```
  public var foundProcessingInstruction: ((_ target: String, _ data: String?) throws -> Void)?
  /// Runs for each warning libxml2 reports about a document it goes on parsing (an XML version
  /// other than 1.0, an invalid `xml:space` value, a namespace name that is not a URI, an entity
  /// reference the unread external subset may declare). A warning never stops the parse; unset,
  /// warnings are ignored. Apple's `XMLParser` reports no warnings, so on Apple platforms this
  /// never runs.
  ///
  /// ```swift
  /// handlers.foundWarning = { warning in print("warning:", warning) }   // unknown XML version (97) at line 1, column 22
  /// ```
  public var foundWarning: ((_ warning: XMLParsingError) throws -> Void)?

  /// Creates handlers; every closure you leave out is skipped.
  ///
  /// ```swift
  /// let handlers = XMLParserHandlers(foundComment: { print("comment:", $0) })
  /// ```
  ///
  /// - Parameters:
  ///   - didStartDocument: Runs before anything else.
  ///   - didEndDocument: Runs last, when the document parsed without error.
  ///   - didStartElement: Runs for each start tag.
  ///   - didEndElement: Runs for each end tag.
  ///   - foundCharacters: Runs for each run of text.
  ///   - foundCDATA: Runs for each CDATA section.
  ///   - foundComment: Runs for each comment.
  ///   - foundProcessingInstruction: Runs for each processing instruction.
  ///   - foundWarning: Runs for each warning (Linux only; the parse goes on).
  public init(
    didStartDocument: (() throws -> Void)? = nil,
    didEndDocument: (() throws -> Void)? = nil,
    didStartElement: (
      (_ name: String, _ namespaceURI: String?, _ qualifiedName: String?, _ attributes: [String: String]) throws -> Void
    )? = nil,
    didEndElement: ((_ name: String, _ namespaceURI: String?, _ qualifiedName: String?) throws -> Void)? = nil,
    foundCharacters: ((_ text: String) throws -> Void)? = nil,
    foundCDATA: ((_ data: Data) throws -> Void)? = nil,
    foundComment: ((_ comment: String) throws -> Void)? = nil,
    foundProcessingInstruction: ((_ target: String, _ data: String?) throws -> Void)? = nil,
    foundWarning: ((_ warning: XMLParsingError) throws -> Void)? = nil
  ) {
    self.didStartDocument = didStartDocument
    self.didEndDocument = didEndDocument
    self.didStartElement = didStartElement
    self.didEndElement = didEndElement
    self.foundCharacters = foundCharacters
    self.foundCDATA = foundCDATA
    self.foundComment = foundComment
    self.foundProcessingInstruction = foundProcessingInstruction
    self.foundWarning = foundWarning
  }
}

@available(*, unavailable)
extension XMLParserHandlers: Sendable {}
