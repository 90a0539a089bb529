// Stub of the Objective-C runtime headers, for type-checking ClosureKitUIKit on Linux only.
// Written from Apple's documentation; declares only what ClosureKitUIKit uses, with Apple's
// nullability and Swift names. Never compiled into anything that runs.
#pragma once

#define NS_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define NS_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#define NS_SWIFT_NAME(_name) __attribute__((swift_name(#_name)))
#define NS_SWIFT_UI_ACTOR __attribute__((swift_attr("@UIActor")))
#define NS_SWIFT_SENDABLE __attribute__((swift_attr("@Sendable")))
// Foundation/NSObjCRuntime.h (iPhoneOS16.5.sdk): no `async` form is imported for the method.
#define NS_SWIFT_DISABLE_ASYNC __attribute__((swift_async(none)))
// Foundation/NSObjCRuntime.h (iPhoneOS16.5.sdk): an `async` form is imported, the completion
// handler being parameter COMPLETION_ARG (WebKit's WK_SWIFT_ASYNC is this).
#define NS_SWIFT_ASYNC(COMPLETION_ARG) __attribute__((swift_async(not_swift_private, COMPLETION_ARG)))
#define NS_DESIGNATED_INITIALIZER __attribute__((objc_designated_initializer))
#define NS_UNAVAILABLE __attribute__((unavailable))
#define NS_ENUM(_type, _name) enum __attribute__((enum_extensibility(open))) _name : _type _name; \
  enum __attribute__((enum_extensibility(open))) _name : _type
#define NS_CLOSED_ENUM(_type, _name) enum __attribute__((enum_extensibility(closed))) _name : _type _name; \
  enum __attribute__((enum_extensibility(closed))) _name : _type
#define NS_OPTIONS(_type, _name) enum __attribute__((flag_enum, enum_extensibility(open))) _name : _type _name; \
  enum __attribute__((flag_enum, enum_extensibility(open))) _name : _type
#define NS_TYPED_ENUM __attribute__((swift_wrapper(enum)))
#define NS_SWIFT_UNAVAILABLE(_msg) __attribute__((availability(swift, unavailable, message=_msg)))
#define OBJC_EXPORT extern

// objc/objc.h (iPhoneOS16.5.sdk): `BOOL` is `bool` where the compiler says so (arm64), else
// `signed char`; Swift maps either to `Bool`. `YES` and `NO` are `__objc_yes` / `__objc_no`,
// which Swift does not import.
#if defined(__OBJC_BOOL_IS_BOOL) && __OBJC_BOOL_IS_BOOL
typedef _Bool BOOL;  // `bool` in the SDK, which includes <stdbool.h>
#else
typedef signed char BOOL;
#endif
#define YES __objc_yes
#define NO __objc_no
typedef long NSInteger;
typedef unsigned long NSUInteger;
typedef struct objc_selector *SEL;
typedef struct objc_class *Class;
typedef struct objc_object {
  Class _Nonnull isa;
} *id;

@class NSString;

// objc/NSObject.h is not audited for nullability in Apple's SDK, so these import with implicitly
// unwrapped optionals (`responds(to aSelector: Selector!)`), exactly as there (`_Null_unspecified`
// spells out "not audited" and keeps clang's nullability-completeness check quiet).
@protocol NSObject
- (BOOL)isEqual:(id _Nullable)object;  // optional in Swift, as ObjectiveC.apinotes makes it
@property (readonly) NSUInteger hash;
- (BOOL)respondsToSelector:(SEL _Null_unspecified)aSelector;
@end

__attribute__((objc_root_class))
@interface NSObject <NSObject>
- (nonnull instancetype)init;  // non-optional in Swift, as ObjectiveC.apinotes makes it
- (id _Nullable)forwardingTargetForSelector:(SEL _Null_unspecified)aSelector;  // ObjectiveC.apinotes: optional result
+ (BOOL)instancesRespondToSelector:(SEL _Null_unspecified)aSelector;
@end

NS_ASSUME_NONNULL_BEGIN

// objc/runtime.h and objc/objc-api.h (iPhoneOS16.5.sdk): declared with OBJC_ENUM, no
// extensibility attribute.
#define OBJC_ENUM(_type, _name) enum _name : _type _name; enum _name : _type
typedef OBJC_ENUM(unsigned long, objc_AssociationPolicy) {
  OBJC_ASSOCIATION_ASSIGN = 0,
  OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1,
  OBJC_ASSOCIATION_COPY_NONATOMIC = 3,
  OBJC_ASSOCIATION_RETAIN = 01401,
  OBJC_ASSOCIATION_COPY = 01403
};

OBJC_EXPORT void objc_setAssociatedObject(id object, const void *key, id _Nullable value,
                                          objc_AssociationPolicy policy);
OBJC_EXPORT id _Nullable objc_getAssociatedObject(id object, const void *key);

NS_ASSUME_NONNULL_END
