// Stub of the geometry types Foundation re-exports, for type-checking ClosureKitUIKit on Linux
// only. In iPhoneOS16.5.sdk they are declared in CoreFoundation/CFCGTypes.h (CGFloat in
// CoreGraphics/CGBase.h) and Swift's `CGFloat` struct in the CoreFoundation overlay; here one
// module named CoreGraphics holds both, because Swift maps the C typedef `CGFloat` to the Swift
// struct `CGFloat` of the module named CoreGraphics (or CoreFoundation) and nowhere else.
// Scripts/compare-stubs.sh compares them with the SDK.
#pragma once

typedef double CGFloat;  // CGBase.h: `CGFLOAT_TYPE` is `double` on 64-bit platforms

struct CGPoint {
  CGFloat x;
  CGFloat y;
};
typedef struct CGPoint CGPoint;

struct CGSize {
  CGFloat width;
  CGFloat height;
};
typedef struct CGSize CGSize;

struct CGRect {
  CGPoint origin;
  CGSize size;
};
typedef struct CGRect CGRect;
