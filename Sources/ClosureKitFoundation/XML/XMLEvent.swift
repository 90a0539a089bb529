public import Foundation

/// One SAX event of an XML document, as `XMLParser/events(in:processingNamespaces:)`
/// delivers it.
///
/// ```swift
/// for try await event in XMLParser.events(in: data) {
///   if case .startElement(let name, _, _, let attributes) = event { print(name, attributes) }
/// }
/// ```
public enum XMLEvent: Sendable, Hashable {
  /// The document starts; always the first event.
  case startDocument
  /// The document ended without error; always the last event.
  case endDocument
  /// A start tag: local name, namespace URI and qualified name (both `nil` unless namespaces are
  /// processed), attributes.
  case startElement(name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String])
  /// An end tag.
  case endElement(name: String, namespaceURI: String?, qualifiedName: String?)
  /// A run of text; one text node may arrive in several pieces.
  case characters(String)
  /// A CDATA section's raw bytes.
  case cdata(Data)
  /// A comment.
  case comment(String)
  /// A processing instruction.
  case processingInstruction(target: String, data: String?)
}
