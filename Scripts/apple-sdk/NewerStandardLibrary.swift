// Standard-library API newer than iPhoneOS16.5.sdk's Swift 5.8 standard library, declared for
// type-checking only and imported into every checked file (`-import-module`). Each is transcribed
// from the Swift 6.3.1 toolchain's own interfaces (lib/swift/linux/Swift.swiftmodule and
// _Concurrency.swiftmodule): the same names, labels, generic signatures and isolation. The bodies
// never run. Never add a UIKit, Foundation, Darwin or Objective-C declaration here: only the
// `Sendable` conformances that Apple's later SDKs declare on Dispatch types (iOS 17's overlay).

import Builtin
import Dispatch

extension MainActor {
  /// Swift 5.9 (iOS 17): `MainActor.assumeIsolated(_:file:line:)`.
  public static func assumeIsolated<T: Sendable>(
    _ operation: @MainActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
  ) rethrows -> T { fatalError("type-checking only") }
}

/// Swift 6.0 (iOS 18): `Int128`. Only the arithmetic a checked file may use is declared; an
/// operation missing here fails the check loudly (it never passes by accident).
@frozen
public struct Int128: Sendable, Hashable, Comparable, ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { fatalError("type-checking only") }
  public init<T: BinaryInteger>(_ source: T) { fatalError("type-checking only") }
  public static func < (lhs: Int128, rhs: Int128) -> Bool { fatalError("type-checking only") }
  public static func + (lhs: Int128, rhs: Int128) -> Int128 { fatalError("type-checking only") }
  public static func - (lhs: Int128, rhs: Int128) -> Int128 { fatalError("type-checking only") }
  public static func * (lhs: Int128, rhs: Int128) -> Int128 { fatalError("type-checking only") }
  public static func / (lhs: Int128, rhs: Int128) -> Int128 { fatalError("type-checking only") }
  public static func % (lhs: Int128, rhs: Int128) -> Int128 { fatalError("type-checking only") }
}

extension Int64 {
  public init(_ source: Int128) { fatalError("type-checking only") }
}

extension Int {
  public init(_ source: Int128) { fatalError("type-checking only") }
}

extension Double {
  public init(_ source: Int128) { fatalError("type-checking only") }
}

extension Duration {
  /// Swift 6.0 (iOS 18): `Duration.attoseconds` and `init(attoseconds:)`.
  public var attoseconds: Int128 { fatalError("type-checking only") }
  public init(attoseconds: Int128) { fatalError("type-checking only") }
}

// iOS 17's Dispatch overlay declares these `@unchecked Sendable` (`DispatchQueue`, `DispatchGroup`,
// `DispatchSemaphore`, `DispatchWorkItem`, `DispatchSource` subclasses): iOS 16.5's does not.
extension DispatchQueue: @retroactive @unchecked Sendable {}
extension DispatchGroup: @retroactive @unchecked Sendable {}
extension DispatchSemaphore: @retroactive @unchecked Sendable {}
extension DispatchWorkItem: @retroactive @unchecked Sendable {}

/// Swift 6.0: `#isolation`, the caller's actor isolation (a built-in macro, as `_Concurrency`
/// declares it; this file is compiled with `-enable-builtin-module` for that one name).
@freestanding(expression) public macro isolation<T>() -> T = Builtin.IsolationMacro

extension AsyncStream {
  /// Swift 5.9 (iOS 17): `AsyncStream.makeStream(of:bufferingPolicy:)`.
  public static func makeStream(
    of elementType: Element.Type = Element.self,
    bufferingPolicy limit: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
  ) -> (stream: AsyncStream<Element>, continuation: AsyncStream<Element>.Continuation) {
    fatalError("type-checking only")
  }
}

extension AsyncThrowingStream {
  /// Swift 5.9 (iOS 17): `AsyncThrowingStream.makeStream(of:throwing:bufferingPolicy:)`.
  public static func makeStream(
    of elementType: Element.Type = Element.self, throwing failureType: Failure.Type = Failure.self,
    bufferingPolicy limit: AsyncThrowingStream<Element, Failure>.Continuation.BufferingPolicy =
      .unbounded
  ) -> (stream: AsyncThrowingStream<Element, Failure>, continuation: AsyncThrowingStream<Element, Failure>.Continuation)
  where Failure == any Error {
    fatalError("type-checking only")
  }
}

extension Optional {
  /// Swift 6.0: `Optional.take()`.
  public mutating func take() -> Wrapped? { fatalError("type-checking only") }
}
// Apple's Dispatch overlay since Xcode 16 declares `extension DispatchSpecificKey: Sendable where
// T: Sendable` (quoted in swiftlang/swift-corelibs-libdispatch issue 845); iOS 16.5's does not.
extension DispatchSpecificKey: @retroactive @unchecked Sendable where T: Sendable {}
