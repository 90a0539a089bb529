// Stub of Foundation (and the parts of CoreGraphics it re-exports) for type-checking
// ClosureKitUIKit on Linux only. Written from Apple's documentation; declares only what the layer
// uses. NSString, NSArray and NSDictionary bridge to String, Array and Dictionary through
// Foundation.apinotes, as in Apple's SDK.
#pragma once
#import <ObjectiveC/objc.h>
#import <CoreGraphics/CoreGraphics.h>

NS_ASSUME_NONNULL_BEGIN

typedef double NSTimeInterval;

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

// Foundation/NSError.h (iPhoneOS16.5.sdk): NS_SWIFT_SENDABLE ("NSError must be Sendable because it
// conforms to Error in Swift"); bridged to `any Error` by Foundation.apinotes (`SwiftBridge:
// Swift.Error`, as in Apple's), the conformance declared by the overlay.
NS_SWIFT_SENDABLE
@interface NSError : NSObject
@end

// Foundation/NSBundle.h (iPhoneOS16.5.sdk); Swift's `Bundle` (Foundation.apinotes).
@interface NSBundle : NSObject
@end

typedef NS_OPTIONS(NSUInteger, NSKeyValueObservingOptions) {
  NSKeyValueObservingOptionNew = 0x01,
  NSKeyValueObservingOptionOld = 0x02,
  NSKeyValueObservingOptionInitial = 0x04,
  NSKeyValueObservingOptionPrior = 0x08
};

typedef NS_ENUM(NSUInteger, NSKeyValueChange) {
  NSKeyValueChangeSetting = 1,
  NSKeyValueChangeInsertion = 2,
  NSKeyValueChangeRemoval = 3,
  NSKeyValueChangeReplacement = 4,
};

@interface NSCoder : NSObject
@end

@protocol NSCoding
- (void)encodeWithCoder:(NSCoder *)coder;
- (nullable instancetype)initWithCoder:(NSCoder *)coder;
@end

NS_ASSUME_NONNULL_END
