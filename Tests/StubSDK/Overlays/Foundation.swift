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

// NSError is an Error (`extension NSError : Error` in Apple's Foundation overlay), which makes the
// Clang importer bridge `NSError *` parameters to `any Error`.
extension NSError: @retroactive Error {}

// Key-value observing, Swift side (NSObject.swift in Apple's Foundation overlay). Where the exact
// Sendable annotation of Apple's declaration is uncertain, the stub declares the stricter form
// (`@Sendable` change handler), so that code checked here compiles against either.

/// The protocol that gives `NSObject` its key-path `observe` method.
public protocol _KeyValueCodingAndObserving {}
extension NSObject: _KeyValueCodingAndObserving {}

/// One change reported by key-value observing.
public struct NSKeyValueObservedChange<Value> {
  public typealias Kind = NSKeyValueChange
  public let kind: Kind
  public let newValue: Value?
  public let oldValue: Value?
  public let isPrior: Bool
}

/// A registered key-value observation; observing stops when it is invalidated or deinitialized.
/// As Apple's Foundation overlay declares it (iPhoneOS16.5.sdk): a public, not open, class with an
/// Objective-C runtime name of its own.
@objc(_NSKeyValueObservation)
public class NSKeyValueObservation: NSObject {
  @objc public func invalidate() {}
}

extension _KeyValueCodingAndObserving {
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>,
    options: NSKeyValueObservingOptions = [],
    changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
  ) -> NSKeyValueObservation {
    fatalError("stub")
  }
}
