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
/// The code is libxml2's own number (`xmlParserErrors`): what ClosureKit's libxml2 backend reads
/// on Linux and what Apple's `XMLParser` reports. (On Linux, Foundation's `XMLParser.ErrorCode`
/// does not match those numbers: `XMLParser.ErrorCode(rawValue: 76)` is `.standaloneValueError`,
/// while libxml2's 76 is a tag name mismatch.) Every code libxml2's parser can report has a
/// readable name in ``description``; ``Code/domain`` says which part of libxml2 it comes from.
/// The same type describes a warning passed to ``XMLParserHandlers/foundWarning``.
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
    /// An unsupported encoding was declared.
    public static let unsupportedEncoding = Code(rawValue: 32)
    /// A warning: the XML declaration names a version other than 1.0.
    public static let unknownVersion = Code(rawValue: 97)
    /// A warning: a namespace name is not a valid URI (for example, it contains a space).
    public static let invalidNamespaceURI = Code(rawValue: 99)
    /// A warning: `xml:space` is neither `default` nor `preserve`.
    public static let invalidSpaceValue = Code(rawValue: 102)
    /// A namespace prefix is used but never declared (only when namespaces are processed).
    public static let undefinedNamespace = Code(rawValue: 201)
    /// No longer thrown: earlier versions refused DTDs that crashed Foundation on Linux, which the
    /// libxml2 backend parses. Kept so that code naming it still compiles.
    public static let unsupportedDocument = Code(rawValue: 10_001)
    /// The parser failed without saying why.
    public static let unknown = Code(rawValue: 10_002)
    /// The document's entities expand to more text than ClosureKit allows (billion laughs,
    /// quadratic blowup): 1,000,000 bytes plus 10 bytes per byte of document read so far.
    public static let entityExpansionLimit = Code(rawValue: 10_003)
    /// The document starts with a UTF-8 byte order mark but declares another encoding.
    public static let encodingMismatch = Code(rawValue: 10_004)

    /// The part of libxml2 (or ClosureKit) whose code this is.
    ///
    /// ```swift
    /// print(XMLParsingError.Code.undefinedNamespace.domain)   // namespace
    /// ```
    public var domain: Domain {
      switch rawValue {
      case 2: .memory
      case 99, 100, 106, 200..<300: .namespace
      case 500..<600: .dtd
      case 1500..<1600: .io
      case 6000..<6100: .encoding
      case 10_000...: .closureKit
      case 1..<200: .parser
      default: .other
      }
    }

    /// The code's name and number, e.g. `tag name mismatch (76)`.
    ///
    /// ```swift
    /// print(XMLParsingError.Code.tagNameMismatch)   // tag name mismatch (76)
    /// ```
    public var description: String {
      "\(XMLErrorNames.names[rawValue] ?? "libxml2 error") (\(rawValue))"
    }
  }

  /// The parts of libxml2 an error code can come from, and ClosureKit itself.
  ///
  /// ```swift
  /// if error.code.domain == .namespace { print("not namespace-well-formed") }
  /// ```
  public enum Domain: String, Sendable, Hashable, CustomStringConvertible {
    /// The XML parser (well-formedness, entities, the XML declaration).
    case parser
    /// Namespace processing (`xmlns` declarations, prefixes).
    case namespace
    /// DTD declarations.
    case dtd
    /// Reading the input.
    case io
    /// Character-encoding conversion.
    case encoding
    /// Memory allocation.
    case memory
    /// ClosureKit's own checks (codes 10000 and up).
    case closureKit
    /// A code outside these ranges.
    case other

    /// The domain's name, e.g. `namespace`.
    ///
    /// ```swift
    /// print(XMLParsingError.Domain.namespace)   // namespace
    /// ```
    public var description: String { rawValue }
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
