// Declarations of Synchronization (Swift 6.0, iOS 18) for type-checking against an Apple SDK that
// predates it (iPhoneOS16.5.sdk). Transcribed from the public interface the Swift 6.3.1 toolchain
// ships (lib/swift/linux/Synchronization.swiftmodule/*.swiftinterface): the same names, generic
// signatures, labels and ownership. The bodies never run: this module is only type-checked against.
// Never add a UIKit, Foundation, Darwin or Objective-C declaration here.

public struct AtomicLoadOrdering: Sendable {
  public static var relaxed: AtomicLoadOrdering { AtomicLoadOrdering() }
  public static var acquiring: AtomicLoadOrdering { AtomicLoadOrdering() }
  public static var sequentiallyConsistent: AtomicLoadOrdering { AtomicLoadOrdering() }
}

public struct AtomicStoreOrdering: Sendable {
  public static var relaxed: AtomicStoreOrdering { AtomicStoreOrdering() }
  public static var releasing: AtomicStoreOrdering { AtomicStoreOrdering() }
  public static var sequentiallyConsistent: AtomicStoreOrdering { AtomicStoreOrdering() }
}

public struct AtomicUpdateOrdering: Sendable {
  public static var relaxed: AtomicUpdateOrdering { AtomicUpdateOrdering() }
  public static var acquiring: AtomicUpdateOrdering { AtomicUpdateOrdering() }
  public static var releasing: AtomicUpdateOrdering { AtomicUpdateOrdering() }
  public static var acquiringAndReleasing: AtomicUpdateOrdering { AtomicUpdateOrdering() }
  public static var sequentiallyConsistent: AtomicUpdateOrdering { AtomicUpdateOrdering() }
}

public protocol AtomicRepresentable {
  associatedtype AtomicRepresentation
  static func encodeAtomicRepresentation(_ value: consuming Self) -> AtomicRepresentation
  static func decodeAtomicRepresentation(_ storage: consuming AtomicRepresentation) -> Self
}

public protocol AtomicOptionalRepresentable: AtomicRepresentable {
  associatedtype AtomicOptionalRepresentation
}

extension AtomicRepresentable where AtomicRepresentation == Self {
  public static func encodeAtomicRepresentation(_ value: consuming Self) -> Self { value }
  public static func decodeAtomicRepresentation(_ storage: consuming Self) -> Self { storage }
}

extension Bool: AtomicRepresentable { public typealias AtomicRepresentation = Bool }
extension Int: AtomicRepresentable { public typealias AtomicRepresentation = Int }
extension Int8: AtomicRepresentable { public typealias AtomicRepresentation = Int8 }
extension Int16: AtomicRepresentable { public typealias AtomicRepresentation = Int16 }
extension Int32: AtomicRepresentable { public typealias AtomicRepresentation = Int32 }
extension Int64: AtomicRepresentable { public typealias AtomicRepresentation = Int64 }
extension UInt: AtomicRepresentable { public typealias AtomicRepresentation = UInt }
extension UInt8: AtomicRepresentable { public typealias AtomicRepresentation = UInt8 }
extension UInt16: AtomicRepresentable { public typealias AtomicRepresentation = UInt16 }
extension UInt32: AtomicRepresentable { public typealias AtomicRepresentation = UInt32 }
extension UInt64: AtomicRepresentable { public typealias AtomicRepresentation = UInt64 }

/// Real Atomic is `@_staticExclusiveOnly` with raw layout; for type-checking, a pointer stands in.
@frozen
public struct Atomic<Value: AtomicRepresentable>: ~Copyable {
  @usableFromInline let storage: UnsafeMutablePointer<Value>
  public init(_ initialValue: consuming Value) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: initialValue)
  }
  public borrowing func load(ordering: AtomicLoadOrdering) -> Value { storage.pointee }
  public borrowing func store(_ desired: consuming Value, ordering: AtomicStoreOrdering) {
    storage.pointee = desired
  }
  public borrowing func exchange(_ desired: consuming Value, ordering: AtomicUpdateOrdering) -> Value {
    storage.pointee
  }
  public borrowing func compareExchange(
    expected: consuming Value, desired: consuming Value, ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Value) { (false, storage.pointee) }
  public borrowing func compareExchange(
    expected: consuming Value, desired: consuming Value,
    successOrdering: AtomicUpdateOrdering, failureOrdering: AtomicLoadOrdering
  ) -> (exchanged: Bool, original: Value) { (false, storage.pointee) }
  public borrowing func weakCompareExchange(
    expected: consuming Value, desired: consuming Value, ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Value) { (false, storage.pointee) }
  public borrowing func weakCompareExchange(
    expected: consuming Value, desired: consuming Value,
    successOrdering: AtomicUpdateOrdering, failureOrdering: AtomicLoadOrdering
  ) -> (exchanged: Bool, original: Value) { (false, storage.pointee) }
}

extension Atomic: @unchecked Sendable where Value: Sendable {}

extension Atomic where Value: FixedWidthInteger {
  @discardableResult
  public borrowing func wrappingAdd(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func wrappingSubtract(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func add(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func subtract(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func bitwiseAnd(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func bitwiseOr(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func bitwiseXor(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func min(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func max(_ operand: Value, ordering: AtomicUpdateOrdering)
    -> (oldValue: Value, newValue: Value)
  { (storage.pointee, storage.pointee) }
}

extension Atomic where Value == Bool {
  @discardableResult
  public borrowing func logicalAnd(_ operand: Bool, ordering: AtomicUpdateOrdering)
    -> (oldValue: Bool, newValue: Bool)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func logicalOr(_ operand: Bool, ordering: AtomicUpdateOrdering)
    -> (oldValue: Bool, newValue: Bool)
  { (storage.pointee, storage.pointee) }
  @discardableResult
  public borrowing func logicalXor(_ operand: Bool, ordering: AtomicUpdateOrdering)
    -> (oldValue: Bool, newValue: Bool)
  { (storage.pointee, storage.pointee) }
}

/// Real Mutex is `@_staticExclusiveOnly` with raw layout; for type-checking, no storage is needed.
/// (`withLockIfAvailable` is left out: iOS 16.5's `Optional` cannot wrap a `~Copyable` result.)
@frozen
public struct Mutex<Value: ~Copyable>: ~Copyable {
  public init(_ initialValue: consuming sending Value) { fatalError("type-checking only") }
  public borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result { fatalError("type-checking only") }
}

extension Mutex: @unchecked Sendable where Value: ~Copyable {}
