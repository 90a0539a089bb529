// Stub Swift overlay of CoreGraphics, for type-checking ClosureKitUIKit on Linux only: Swift's
// `CGFloat`, transcribed from the CoreFoundation overlay of iPhoneOS16.5.sdk
// (`swift-synthesize-interface -module-name CoreFoundation`), with the members and conformances
// that code written against UIKit's geometry uses. Never compiled into anything that runs.
@_exported import CoreGraphics

/// The floating-point type of Core Graphics geometry (a `Double` on 64-bit platforms).
@frozen
public struct CGFloat {
  public typealias NativeType = Double
  public init() { native = 0 }
  public init(_ value: Float) { native = Double(value) }
  public init(_ value: Double) { native = value }
  public init(_ value: CGFloat) { native = value.native }
  public var native: CGFloat.NativeType
}

extension CGFloat: Sendable {}

extension CGFloat: ExpressibleByFloatLiteral {
  public init(floatLiteral value: CGFloat.NativeType) { native = value }
}

extension CGFloat: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { native = Double(value) }
}

extension CGFloat {
  public static func + (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native + rhs.native) }
  public static func - (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native - rhs.native) }
  public static func * (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native * rhs.native) }
  public static func / (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native / rhs.native) }
  public static func += (lhs: inout CGFloat, rhs: CGFloat) { lhs.native += rhs.native }
  public static func -= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native -= rhs.native }
  public static func *= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native *= rhs.native }
  public static func /= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native /= rhs.native }
}

// CoreGraphics overlay of iPhoneOS16.5.sdk: the empty rectangle at the origin (`WKWebView(frame: .zero,
// configuration:)`).
extension CGRect {
  public static var zero: CGRect { CGRect() }
}
