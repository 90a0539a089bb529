// Stub Swift overlay of the ObjectiveC module, for type-checking ClosureKitUIKit on Linux only.
@_exported import ObjectiveC

/// The Swift form of `SEL`, as Apple's ObjectiveC overlay defines it.
@frozen
public struct Selector: ExpressibleByStringLiteral, Hashable, Sendable {
  let name: String
  public init(_ name: String) { self.name = name }
  public init(stringLiteral value: String) { self.name = value }
}

/// The Swift form of `BOOL` where it is not imported as `Bool`.
@frozen
public struct ObjCBool: ExpressibleByBooleanLiteral, Sendable {
  let value: Bool
  public init(_ value: Bool) { self.value = value }
  public init(booleanLiteral value: Bool) { self.value = value }
  public var boolValue: Bool { value }
}
