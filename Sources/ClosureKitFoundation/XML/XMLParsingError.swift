/// Why an XML document could not be parsed, and where.
///
/// ```swift
/// do {
///   try XMLParser.parse(Data("<a><b></a>".utf8), handlers: XMLParserHandlers())
/// } catch let error as XMLParsingError {
///   print(error.code, error.line, error.column)   // tag name mismatch, 1, 11
/// }
/// ```
///
/// The code is libxml2's own number (`xmlParserErrors`), which both Apple's and Linux's
/// `XMLParser` report in their error callbacks. On Linux, `XMLParser.ErrorCode` does not match
/// those numbers (`XMLParser.ErrorCode(rawValue: 76)` is `.standaloneValueError`, while libxml2's
/// 76 is a tag name mismatch), so ClosureKit keeps the raw number and names it itself.
///
/// > Important: The error describes the *first* problem the parser found; nothing after it was
/// > delivered.
public struct XMLParsingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A parse error kind: libxml2's error number, or one of ClosureKit's own (10000 and up).
  ///
  /// ```swift
  /// if error.code == .tagNameMismatch { print("unbalanced tags") }
  /// ```
  public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// libxml2's number, or 10000 and up for ClosureKit's own codes.
    public let rawValue: Int

    /// Creates a code from its number.
    ///
    /// ```swift
    /// let mismatch = XMLParsingError.Code(rawValue: 76)   // .tagNameMismatch
    /// ```
    ///
    /// - Parameter rawValue: libxml2's `xmlParserErrors` number.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// libxml2 reported an internal error.
    public static let internalError = Code(rawValue: 1)
    /// libxml2 ran out of memory.
    public static let outOfMemory = Code(rawValue: 2)
    /// The document does not start like an XML document.
    public static let documentStart = Code(rawValue: 3)
    /// The document is empty or has no root element.
    public static let emptyDocument = Code(rawValue: 4)
    /// The document ends before its root element is closed, or has content after it.
    public static let prematureDocumentEnd = Code(rawValue: 5)
    /// A character reference is not a valid character.
    public static let invalidCharacterReference = Code(rawValue: 8)
    /// The document contains a character that XML does not allow.
    public static let invalidCharacter = Code(rawValue: 9)
    /// An entity reference (`&name;`) names no declared entity.
    public static let undeclaredEntity = Code(rawValue: 26)
    /// The declared encoding is unknown.
    public static let unknownEncoding = Code(rawValue: 31)
    /// A `<` appears inside an attribute value.
    public static let lessThanInAttribute = Code(rawValue: 38)
    /// An attribute value does not start with a quote.
    public static let attributeNotStarted = Code(rawValue: 39)
    /// An attribute value is not closed.
    public static let attributeNotFinished = Code(rawValue: 40)
    /// An attribute has no value.
    public static let attributeWithoutValue = Code(rawValue: 41)
    /// An attribute appears twice in one tag.
    public static let attributeRedefined = Code(rawValue: 42)
    /// A comment is not closed.
    public static let commentNotFinished = Code(rawValue: 45)
    /// A CDATA section is not closed.
    public static let cdataNotFinished = Code(rawValue: 63)
    /// Whitespace is required here.
    public static let spaceRequired = Code(rawValue: 65)
    /// A name is required here.
    public static let nameRequired = Code(rawValue: 68)
    /// A `<` is required here.
    public static let lessThanRequired = Code(rawValue: 72)
    /// A `>` is required here.
    public static let greaterThanRequired = Code(rawValue: 73)
    /// A `</` is required here.
    public static let lessThanSlashRequired = Code(rawValue: 74)
    /// An `=` is required here.
    public static let equalRequired = Code(rawValue: 75)
    /// An end tag does not match the open element.
    public static let tagNameMismatch = Code(rawValue: 76)
    /// A tag is not finished.
    public static let tagNotFinished = Code(rawValue: 77)
    /// Elements are not well balanced.
    public static let notWellBalanced = Code(rawValue: 85)
    /// Extra content follows the root element.
    public static let extraContent = Code(rawValue: 86)
    /// Entities refer to each other in a loop.
    public static let entityLoop = Code(rawValue: 89)
    /// ClosureKit refused the document before parsing it because Foundation on Linux would crash
    /// on it: its internal DTD subset declares an `#IMPLIED` or `#REQUIRED` attribute, a
    /// `NOTATION`, or a parameter entity.
    public static let unsupportedDocument = Code(rawValue: 10_001)
    /// The parser failed without saying why (`XMLParser.parse()` returned `false`, no error
    /// callback came).
    public static let unknown = Code(rawValue: 10_002)

    /// The names of the codes above, for ``description``.
    private static let names: [Int: String] = [
      1: "internal error", 2: "out of memory", 3: "document start", 4: "empty document",
      5: "premature document end", 8: "invalid character reference", 9: "invalid character",
      26: "undeclared entity", 31: "unknown encoding", 38: "'<' in attribute", 39: "attribute not started",
      40: "attribute not finished", 41: "attribute without value", 42: "attribute redefined",
      45: "comment not finished", 63: "CDATA not finished", 65: "space required", 68: "name required",
      72: "'<' required", 73: "'>' required", 74: "'</' required", 75: "'=' required",
      76: "tag name mismatch", 77: "tag not finished", 85: "not well balanced", 86: "extra content",
      89: "entity loop", 10_001: "unsupported document", 10_002: "unknown",
    ]

    /// The code's name and number, e.g. `tag name mismatch (76)`.
    ///
    /// ```swift
    /// print(XMLParsingError.Code.tagNameMismatch)   // tag name mismatch (76)
    /// ```
    public var description: String {
      "\(Self.names[rawValue] ?? "libxml2 error") (\(rawValue))"
    }
  }

  /// What went wrong.
  ///
  /// ```swift
  /// if error.code == .undeclaredEntity { print("unknown &entity;") }
  /// ```
  public let code: Code
  /// The 1-based line where the parser noticed the problem.
  ///
  /// ```swift
  /// print("line \(error.line)")
  /// ```
  public let line: Int
  /// The 1-based column where the parser noticed the problem.
  ///
  /// ```swift
  /// print("column \(error.column)")
  /// ```
  public let column: Int

  /// Creates an error.
  ///
  /// ```swift
  /// let error = XMLParsingError(code: .tagNameMismatch, line: 3, column: 9)
  /// ```
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - line: The 1-based line.
  ///   - column: The 1-based column.
  public init(code: Code, line: Int, column: Int) {
    self.code = code
    self.line = line
    self.column = column
  }

  /// The code with its position, e.g. `tag name mismatch (76) at line 3, column 9`.
  ///
  /// ```swift
  /// print(error)   // tag name mismatch (76) at line 3, column 9
  /// ```
  public var description: String {
    "\(code) at line \(line), column \(column)"
  }
}
