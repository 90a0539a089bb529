// Stub of Apple's `ObjectiveC` module (the Objective-C runtime), for type-checking ClosureKit's
// `#if canImport(ObjectiveC)` branches on Linux only (Scripts/typecheck-apple.sh). Never compiled
// into anything that runs. It declares only what ClosureKit uses; every declaration is transcribed
// from apple-oss-distributions/objc4 @ objc4-951.1, the file named above each group. Methods of
// the NSObject protocol and class that ClosureKit does not call are left out.
#pragma once

// objc4: runtime/objc-api.h @ objc4-951.1 (the branch for compilers with objc_fixed_enum)
#define OBJC_EXPORT extern
#define OBJC_ROOT_CLASS __attribute__((objc_root_class))
#define OBJC_ENUM(_type, _name) enum _name : _type _name; enum _name : _type
typedef unsigned long uintptr_t;  // the C type objc_AssociationPolicy is declared with (LP64)
#define OBJC_SWIFT_UNAVAILABLE(_msg) __attribute__((availability(swift, unavailable, message=_msg)))

// objc4: runtime/objc.h @ objc4-951.1 (BOOL is `bool` where __OBJC_BOOL_IS_BOOL: arm64 and
// every Apple platform ClosureKit supports except Intel Macs, where it is `signed char`)
typedef struct objc_class *Class;
struct objc_object {
  Class _Nonnull isa;
};
typedef struct objc_object *id;
typedef struct objc_selector *SEL;
typedef _Bool BOOL;  // `bool` from <stdbool.h>

// objc4: runtime/NSObjCRuntime.h @ objc4-951.1 (__LP64__)
typedef long NSInteger;
typedef unsigned long NSUInteger;

// objc4: runtime/NSObject.h @ objc4-951.1, not audited for nullability; the SDK's
// usr/include/objc/ObjectiveC.apinotes then gives these their Swift nullability, written here as
// annotations (`isEqual:` optional, `self` / `isKindOfClass:` / `description` / `init`
// non-optional). `respondsToSelector:` is left out: ClosureKit does not call it, and without the
// ObjectiveC overlay's `Selector` a `SEL` would import as an OpaquePointer, unlike on Apple.
@class NSString;

@protocol NSObject
- (BOOL)isEqual:(id _Nullable)object;
@property (readonly) NSUInteger hash;
- (Class)class OBJC_SWIFT_UNAVAILABLE("use 'type(of: anObject)' instead");
- (nonnull instancetype)self;
- (BOOL)isKindOfClass:(Class _Nonnull)aClass;
@property (readonly, copy, nonnull) NSString *description;
@end

OBJC_ROOT_CLASS
OBJC_EXPORT
@interface NSObject <NSObject> {
  Class isa;
}
- (nonnull instancetype)init;
+ (instancetype)new OBJC_SWIFT_UNAVAILABLE("use object initializers instead");
+ (instancetype)alloc OBJC_SWIFT_UNAVAILABLE("use object initializers instead");
- (void)dealloc OBJC_SWIFT_UNAVAILABLE("use 'deinit' to define a de-initializer");
@end

// objc4: runtime/runtime.h @ objc4-951.1
typedef OBJC_ENUM(uintptr_t, objc_AssociationPolicy) {
  OBJC_ASSOCIATION_ASSIGN = 0,
  OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1,
  OBJC_ASSOCIATION_COPY_NONATOMIC = 3,
  OBJC_ASSOCIATION_RETAIN = 01401,
  OBJC_ASSOCIATION_COPY = 01403
};
OBJC_EXPORT void objc_setAssociatedObject(id _Nonnull object, const void *_Nonnull key, id _Nullable value,
                                          objc_AssociationPolicy policy);
OBJC_EXPORT id _Nullable objc_getAssociatedObject(id _Nonnull object, const void *_Nonnull key);
