// Stub of Foundation (and the parts of CoreGraphics it re-exports) for type-checking
// ClosureKitUIKit on Linux only. Written from Apple's documentation; declares only what the layer
// uses. NSString, NSArray and NSDictionary bridge to String, Array and Dictionary through
// Foundation.apinotes, as in Apple's SDK.
#pragma once
#import <ObjectiveC/objc.h>

NS_ASSUME_NONNULL_BEGIN

typedef double NSTimeInterval;
typedef double CGFloat;
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

typedef struct _NSRange {
  NSUInteger location;
  NSUInteger length;
} NSRange;

NS_SWIFT_SENDABLE
@interface NSString : NSObject
@property (readonly) NSUInteger length;
@end

@interface NSArray<__covariant ObjectType> : NSObject
@property (readonly) NSUInteger count;
@end

@interface NSDictionary<__covariant KeyType, __covariant ObjectType> : NSObject
@property (readonly) NSUInteger count;
@end

@interface NSError : NSObject
@end

@interface NSCoder : NSObject
@end

NS_ASSUME_NONNULL_END
