import Foundation

/// Finds, before parsing, the DTD constructs that crash Foundation's `XMLParser` on Linux.
///
/// swift-corelibs-foundation converts the C strings of libxml2's attribute-declaration and
/// notation-declaration callbacks without checking for `NULL` whenever a delegate is set: an
/// attribute declared `#IMPLIED` or `#REQUIRED` (no default value) or a `NOTATION` without a public
/// id ends the process with SIGSEGV. Only the document's internal DTD subset can hold them (an
/// external DTD is not loaded), so the check reads the prolog only and stops at the root element.
enum XMLDocumentCheck {
  /// The constructs that crash, as they appear in an internal subset; a parameter entity is
  /// refused too, because its replacement text could hide one of the others.
  private static let refused: [[UInt8]] = ["#IMPLIED", "#REQUIRED", "NOTATION"].map { Array($0.utf8) }

  /// The position of the first refused construct, or `nil` when the document is safe to parse.
  static func firstUnsupportedConstruct(in data: Data) -> (line: Int, column: Int)? {
    if let first = data.first, first == 0 || first == 0xFE || first == 0xFF || data.dropFirst().first == 0 {
      // UTF-16 or UTF-32: scan a UTF-8 copy of the document (rare; costs one conversion).
      let decoded =
        String(data: data, encoding: .utf16) ?? String(data: data, encoding: .utf16BigEndian)
        ?? String(data: data, encoding: .utf32)
      guard let decoded else { return nil }
      return Array(decoded.utf8).withUnsafeBufferPointer { firstUnsupportedConstruct(in: $0) }
    }
    return data.withUnsafeBytes { firstUnsupportedConstruct(in: $0.bindMemory(to: UInt8.self)) }
  }

  /// Scans the prolog of UTF-8 bytes.
  private static func firstUnsupportedConstruct(in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int)? {
    let bytes = UnsafeBufferPointer(rebasing: bytes[0..<prologLength(bytes)])
    guard let doctype = find(Array("<!DOCTYPE".utf8), in: bytes, from: 0) else { return nil }
    guard let open = bytes[doctype...].firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ">") }),
      bytes[open] == UInt8(ascii: "[")
    else { return nil }
    var hits = refused.compactMap { find($0, in: bytes, from: open) }
    if let entity = find(Array("<!ENTITY".utf8), in: bytes, from: open) {
      var index = entity + 8
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
      {
        index += 1
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "%") { hits.append(entity) }
    }
    guard let hit = hits.min() else { return nil }
    var line = 1
    var lineStart = 0
    for index in 0..<hit where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return (line, hit - lineStart + 1)
  }

  /// The length of the prolog: everything before the root element's `<`, skipping the XML
  /// declaration, processing instructions, comments and the DOCTYPE with its internal subset.
  private static func prologLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = 0
    var quote: UInt8? = nil
    var inComment = false
    var depth = 0  // inside `<!DOCTYPE ... [ ... ]>` or another markup declaration
    while index < bytes.count {
      let byte = bytes[index]
      if inComment {
        if byte == UInt8(ascii: "-"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-"),
          bytes[index + 2] == UInt8(ascii: ">")
        {
          inComment = false
          index += 3
          continue
        }
      } else if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "<") {
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if next == UInt8(ascii: "!"), index + 3 < bytes.count, bytes[index + 2] == UInt8(ascii: "-"),
          bytes[index + 3] == UInt8(ascii: "-")
        {
          inComment = true
          index += 4
          continue
        }
        if next != UInt8(ascii: "!") && next != UInt8(ascii: "?") && depth == 0 { return index }
        depth += 1
      } else if byte == UInt8(ascii: ">") {
        depth = max(0, depth - 1)
      } else if (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) && depth > 0 {
        quote = byte
      }
      index += 1
    }
    return bytes.count
  }

  /// The index of the first occurrence of `needle` in `bytes` at or after `start`.
  private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var index = start
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0],
        UnsafeBufferPointer(rebasing: bytes[index..<(index + needle.count)]).elementsEqual(needle)
      {
        return index
      }
      index += 1
    }
    return nil
  }
}
