// Stub Swift overlay of Foundation, for type-checking ClosureKitUIKit on Linux only. It re-exports
// the stub ObjectiveC and Foundation Clang modules (shadowing Linux's Foundation) and declares the
// bridging conformances that make the Clang importer map NSString/NSArray/NSDictionary to
// String/Array/Dictionary. No body here ever runs.
@_exported import Foundation
@_exported import ObjectiveC

extension String: @retroactive _ObjectiveCBridgeable {
  public func _bridgeToObjectiveC() -> NSString { fatalError("stub") }
  public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?) {}
  public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout String?) -> Bool {
    false
  }
  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String { fatalError("stub") }
}

extension Array: @retroactive _ObjectiveCBridgeable {
  public func _bridgeToObjectiveC() -> NSArray { fatalError("stub") }
  public static func _forceBridgeFromObjectiveC(_ source: NSArray, result: inout [Element]?) {}
  public static func _conditionallyBridgeFromObjectiveC(_ source: NSArray, result: inout [Element]?) -> Bool {
    false
  }
  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSArray?) -> [Element] { fatalError("stub") }
}

extension Dictionary: @retroactive _ObjectiveCBridgeable {
  public func _bridgeToObjectiveC() -> NSDictionary { fatalError("stub") }
  public static func _forceBridgeFromObjectiveC(_ source: NSDictionary, result: inout [Key: Value]?) {}
  public static func _conditionallyBridgeFromObjectiveC(
    _ source: NSDictionary,
    result: inout [Key: Value]?
  ) -> Bool {
    false
  }
  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSDictionary?) -> [Key: Value] {
    fatalError("stub")
  }
}

public typealias NSRange = _NSRange
