/// Checks the one thing about a document's encoding that libxml2 2.9 gets wrong: a UTF-8 byte
/// order mark followed by an XML declaration that names another encoding. libxml2 switches to the
/// declared encoding and parses the UTF-8 bytes as, say, ISO-8859-1 (mojibake, no error), while
/// XML 1.0 (section 4.3.3) makes the contradiction a fatal error.
///
/// It reads only the XML declaration, which has a fixed grammar and must be the first thing in the
/// document: this is not a scan for constructs anywhere in the document.
enum XMLDeclarationCheck {
  /// The bytes read before the check runs; an XML declaration is far shorter.
  static let headLength = 1024

  private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
  private static let declarationStart = Array("<?xml".utf8)

  /// Whether `head` is long enough to decide (the check needs the whole declaration, or proof that
  /// there is no BOM or no declaration).
  static func isComplete(_ head: [UInt8]) -> Bool {
    let prefix = bom + declarationStart
    for (index, byte) in head.prefix(prefix.count).enumerated() where byte != prefix[index] { return true }
    guard head.count >= prefix.count else { return false }
    return head.dropFirst(prefix.count).contains(UInt8(ascii: ">"))
  }

  /// The 1-based line and column of the declared encoding's name when `head` starts with a UTF-8
  /// BOM and declares an encoding other than UTF-8; `nil` otherwise.
  static func encodingContradictingBOM(in head: [UInt8]) -> (line: Int, column: Int)? {
    guard head.starts(with: bom + declarationStart) else { return nil }
    let start = bom.count + declarationStart.count
    guard start < head.count, isSpace(head[start]) else { return nil }
    let end = head[start...].firstIndex(of: UInt8(ascii: ">")) ?? head.count
    let declaration = Array(head[start..<end])
    let name = Array("encoding".utf8)
    var index = 0
    while index + name.count <= declaration.count {
      guard declaration[index..<(index + name.count)].elementsEqual(name), index > 0, isSpace(declaration[index - 1])
      else {
        index += 1
        continue
      }
      var cursor = index + name.count
      while cursor < declaration.count, isSpace(declaration[cursor]) { cursor += 1 }
      guard cursor < declaration.count, declaration[cursor] == UInt8(ascii: "=") else { return nil }
      cursor += 1
      while cursor < declaration.count, isSpace(declaration[cursor]) { cursor += 1 }
      guard cursor < declaration.count,
        declaration[cursor] == UInt8(ascii: "\"") || declaration[cursor] == UInt8(ascii: "'")
      else { return nil }
      let quote = declaration[cursor]
      let valueStart = cursor + 1
      guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return nil }
      let value = String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self).lowercased()
      guard value != "utf-8" && value != "utf8" else { return nil }
      // Position in the document, counted after the BOM.
      let offset = start + valueStart - bom.count
      let bytes = head[bom.count..<(bom.count + offset)]
      let line = 1 + bytes.filter { $0 == 0x0A }.count
      let lineStart = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bom.count
      return (line, bom.count + offset - lineStart + 1)
    }
    return nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
