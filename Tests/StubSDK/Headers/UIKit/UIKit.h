// Stub of UIKit for type-checking ClosureKitUIKit on Linux only. Written from Apple's
// documentation of the iOS 18 SDK (developer.apple.com/documentation/uikit, the Swift declaration
// of each symbol and its Objective-C selector): the classes, methods, nullability, Swift names and
// main-actor annotations that the layer uses, and what a screen written against it uses (the
// code blocks of UIKit.md and of the layer's doc comments, the client files in Usage/). NS_SWIFT_NAME on a property restores the Swift
// name that UIKit.apinotes gives it in Apple's SDK, where the importer would otherwise prune it. Never compiled into anything that runs.
#pragma once
#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@class UIView, UIViewController, UIEvent, UIImage, UIBarButtonItem, UIPopoverPresentationController;

NS_SWIFT_SENDABLE
@interface UIImage : NSObject
+ (nullable UIImage *)imageNamed:(NSString *)name;
// `init?(systemName name: String)`, iOS 13 (UIKit.apinotes names it in Apple's SDK).
+ (nullable UIImage *)systemImageNamed:(NSString *)name NS_SWIFT_NAME(init(systemName:));
@end

NS_SWIFT_UI_ACTOR
@interface UIResponder : NSObject
// `@discardableResult func becomeFirstResponder() -> Bool`, as every imported method returning BOOL.
- (BOOL)becomeFirstResponder;
- (BOOL)resignFirstResponder;
@property (nonatomic, readonly) BOOL isFirstResponder;
@end

NS_SWIFT_UI_ACTOR
@interface UIEvent : NSObject
@property (nonatomic, readonly) NSTimeInterval timestamp;
@end

typedef NS_ENUM(NSInteger, UIGestureRecognizerState) {
  UIGestureRecognizerStatePossible,
  UIGestureRecognizerStateBegan,
  UIGestureRecognizerStateChanged,
  UIGestureRecognizerStateEnded,
  UIGestureRecognizerStateCancelled,
  UIGestureRecognizerStateFailed,
  UIGestureRecognizerStateRecognized = UIGestureRecognizerStateEnded
} NS_SWIFT_NAME(UIGestureRecognizer.State);

NS_SWIFT_UI_ACTOR
@interface UIGestureRecognizer : NSObject
- (instancetype)initWithTarget:(nullable id)target action:(nullable SEL)action NS_DESIGNATED_INITIALIZER;
- (instancetype)init;
- (void)addTarget:(id)target action:(SEL)action;
- (void)removeTarget:(nullable id)target action:(nullable SEL)action;
@property (nonatomic, readonly) UIGestureRecognizerState state;
@property (nullable, nonatomic, readonly) UIView *view;
@property (nonatomic, getter=isEnabled) BOOL enabled;
@property (nonatomic) BOOL cancelsTouchesInView;
- (CGPoint)locationInView:(nullable UIView *)view;
@end

NS_SWIFT_UI_ACTOR
@interface UITapGestureRecognizer : UIGestureRecognizer
@property (nonatomic) NSUInteger numberOfTapsRequired;
@property (nonatomic) NSUInteger numberOfTouchesRequired;
@end

NS_SWIFT_UI_ACTOR
@interface UILongPressGestureRecognizer : UIGestureRecognizer
@property (nonatomic) NSTimeInterval minimumPressDuration;
@end

NS_SWIFT_UI_ACTOR
@interface UIPanGestureRecognizer : UIGestureRecognizer
- (CGPoint)translationInView:(nullable UIView *)view;
- (CGPoint)velocityInView:(nullable UIView *)view;
@end

typedef NS_OPTIONS(NSUInteger, UISwipeGestureRecognizerDirection) {
  UISwipeGestureRecognizerDirectionRight = 1 << 0,
  UISwipeGestureRecognizerDirectionLeft = 1 << 1,
  UISwipeGestureRecognizerDirectionUp = 1 << 2,
  UISwipeGestureRecognizerDirectionDown = 1 << 3
} NS_SWIFT_NAME(UISwipeGestureRecognizer.Direction);

NS_SWIFT_UI_ACTOR
@interface UISwipeGestureRecognizer : UIGestureRecognizer
@property (nonatomic) UISwipeGestureRecognizerDirection direction;
@end

NS_SWIFT_UI_ACTOR
@interface UIView : UIResponder <NSCoding>
- (instancetype)initWithFrame:(CGRect)frame NS_DESIGNATED_INITIALIZER;
- (nullable instancetype)initWithCoder:(NSCoder *)coder NS_DESIGNATED_INITIALIZER;
@property (nonatomic) CGRect frame;
@property (nonatomic) CGRect bounds;
@property (nonatomic) CGPoint center;
@property (nonatomic, getter=isHidden) BOOL hidden;
@property (nonatomic) CGFloat alpha;
@property (nullable, nonatomic, readonly) UIView *superview NS_SWIFT_NAME(superview);
@property (nonatomic, readonly, copy) NSArray<__kindof UIView *> *subviews;
- (void)addSubview:(UIView *)view;
- (void)removeFromSuperview;
@property (nonatomic, getter=isUserInteractionEnabled) BOOL userInteractionEnabled;
@property (nullable, nonatomic, copy) NSArray<__kindof UIGestureRecognizer *> *gestureRecognizers NS_SWIFT_NAME(gestureRecognizers);
- (void)addGestureRecognizer:(UIGestureRecognizer *)gestureRecognizer;
- (void)removeGestureRecognizer:(UIGestureRecognizer *)gestureRecognizer;
@end

typedef NS_OPTIONS(NSUInteger, UIControlEvents) {
  UIControlEventTouchDown = 1 << 0,
  UIControlEventTouchDownRepeat = 1 << 1,
  UIControlEventTouchDragInside = 1 << 2,
  UIControlEventTouchDragOutside = 1 << 3,
  UIControlEventTouchDragEnter = 1 << 4,
  UIControlEventTouchDragExit = 1 << 5,
  UIControlEventTouchUpInside = 1 << 6,
  UIControlEventTouchUpOutside = 1 << 7,
  UIControlEventTouchCancel = 1 << 8,
  UIControlEventValueChanged = 1 << 12,
  UIControlEventPrimaryActionTriggered = 1 << 13,
  UIControlEventMenuActionTriggered = 1 << 14,
  UIControlEventEditingDidBegin = 1 << 16,
  UIControlEventEditingChanged = 1 << 17,
  UIControlEventEditingDidEnd = 1 << 18,
  UIControlEventEditingDidEndOnExit = 1 << 19,
  UIControlEventAllTouchEvents = 0x00000FFF,
  UIControlEventAllEditingEvents = 0x000F0000,
  UIControlEventApplicationReserved = 0x0F000000,
  UIControlEventSystemReserved = 0xF0000000,
  UIControlEventAllEvents = 0xFFFFFFFF
} NS_SWIFT_NAME(UIControl.Event);

NS_SWIFT_UI_ACTOR
@interface UIControl : UIView
@property (nonatomic, getter=isEnabled) BOOL enabled;
- (void)addTarget:(nullable id)target action:(SEL)action forControlEvents:(UIControlEvents)controlEvents;
- (void)removeTarget:(nullable id)target action:(nullable SEL)action forControlEvents:(UIControlEvents)controlEvents;
- (void)sendActionsForControlEvents:(UIControlEvents)controlEvents;
@end

// `.normal` (zero) imports as unavailable here ("use [] to construct an empty option set"); Apple's
// SDK keeps it usable. Code checked against this stub writes `[]` or another state.
typedef NS_OPTIONS(NSUInteger, UIControlState) {
  UIControlStateNormal = 0,
  UIControlStateHighlighted = 1 << 0,
  UIControlStateDisabled = 1 << 1,
  UIControlStateSelected = 1 << 2,
  UIControlStateFocused = 1 << 3,
  UIControlStateApplication = 0x00FF0000,
  UIControlStateReserved = 0xFF000000
} NS_SWIFT_NAME(UIControl.State);

typedef NS_ENUM(NSInteger, UIButtonType) {
  UIButtonTypeCustom = 0,
  UIButtonTypeSystem,
  UIButtonTypeDetailDisclosure,
  UIButtonTypeInfoLight,
  UIButtonTypeInfoDark,
  UIButtonTypeContactAdd,
  // UIButtonTypePlain (6) is API_UNAVAILABLE(ios) in UIButton.h (iPhoneOS16.5.sdk): tvOS only.
  UIButtonTypeClose = 7,
  UIButtonTypeRoundedRect = UIButtonTypeSystem
} NS_SWIFT_NAME(UIButton.ButtonType);

NS_SWIFT_UI_ACTOR
@interface UIButton : UIControl
// `convenience init(type buttonType: UIButton.ButtonType)`.
+ (instancetype)buttonWithType:(UIButtonType)buttonType;
@property (nonatomic, readonly) UIButtonType buttonType;
- (void)setTitle:(nullable NSString *)title forState:(UIControlState)state;
- (nullable NSString *)titleForState:(UIControlState)state;
- (void)setImage:(nullable UIImage *)image forState:(UIControlState)state;
@end

NS_SWIFT_UI_ACTOR
@interface UILabel : UIView
@property (nullable, nonatomic, copy) NSString *text;
@property (nonatomic) NSInteger numberOfLines;
@end

NS_SWIFT_UI_ACTOR
@interface UIImageView : UIView
- (instancetype)initWithImage:(nullable UIImage *)image;
@property (nullable, nonatomic, strong) UIImage *image;
@end

NS_SWIFT_UI_ACTOR
@interface UISlider : UIControl
@property (nonatomic) float value;
@property (nonatomic) float minimumValue;
@property (nonatomic) float maximumValue;
- (void)setValue:(float)value animated:(BOOL)animated;
@end

NS_SWIFT_UI_ACTOR
@interface UISwitch : UIControl
@property (nonatomic, getter=isOn) BOOL on;
- (void)setOn:(BOOL)on animated:(BOOL)animated;
@end

NS_SWIFT_UI_ACTOR
@interface UIRefreshControl : UIControl
@property (nonatomic, readonly, getter=isRefreshing) BOOL refreshing;
- (void)beginRefreshing;
- (void)endRefreshing;
@end

NS_SWIFT_UI_ACTOR
@interface UIScrollView : UIView
@property (nonatomic) CGPoint contentOffset;
@property (nonatomic) CGSize contentSize;
@property (nullable, nonatomic, strong) UIRefreshControl *refreshControl;
@end

@class UITextField;

NS_SWIFT_UI_ACTOR
@protocol UITextFieldDelegate <NSObject>
@optional
- (BOOL)textFieldShouldBeginEditing:(UITextField *)textField;
- (void)textFieldDidBeginEditing:(UITextField *)textField;
- (BOOL)textFieldShouldEndEditing:(UITextField *)textField;
- (void)textFieldDidEndEditing:(UITextField *)textField;
- (BOOL)textField:(UITextField *)textField
    shouldChangeCharactersInRange:(NSRange)range
                replacementString:(NSString *)string;
- (BOOL)textFieldShouldClear:(UITextField *)textField;
- (BOOL)textFieldShouldReturn:(UITextField *)textField;
@end

// UITextInputTraits.h / UITextInput.h (iPhoneOS16.5.sdk): `secureTextEntry` is an optional
// property of UITextInputTraits, which UITextField adopts through UITextInput and UIKeyInput.
NS_SWIFT_UI_ACTOR
@protocol UITextInputTraits <NSObject>
@optional
@property (nonatomic, getter=isSecureTextEntry) BOOL secureTextEntry;
@end

NS_SWIFT_UI_ACTOR
@protocol UIKeyInput <UITextInputTraits>
@end

NS_SWIFT_UI_ACTOR
@protocol UITextInput <UIKeyInput>
@end

NS_SWIFT_UI_ACTOR
@interface UITextField : UIControl <UITextInput, NSCoding>
@property (nullable, nonatomic, copy) NSString *text;
@property (nullable, nonatomic, copy) NSString *placeholder;
@property (nullable, nonatomic, weak) id<UITextFieldDelegate> delegate;
@end

NS_SWIFT_UI_ACTOR
@interface UIBarItem : NSObject
@property (nullable, nonatomic, copy) NSString *title;
@property (nullable, nonatomic, strong) UIImage *image;
@property (nonatomic, getter=isEnabled) BOOL enabled;
@end

typedef NS_ENUM(NSInteger, UIBarButtonItemStyle) {
  UIBarButtonItemStylePlain,
  UIBarButtonItemStyleDone = 2,
} NS_SWIFT_NAME(UIBarButtonItem.Style);

typedef NS_ENUM(NSInteger, UIBarButtonSystemItem) {
  UIBarButtonSystemItemDone,
  UIBarButtonSystemItemCancel,
  UIBarButtonSystemItemEdit,
  UIBarButtonSystemItemSave,
  UIBarButtonSystemItemAdd,
  UIBarButtonSystemItemFlexibleSpace,
  UIBarButtonSystemItemFixedSpace,
  UIBarButtonSystemItemCompose,
  UIBarButtonSystemItemReply,
  UIBarButtonSystemItemAction,
  UIBarButtonSystemItemOrganize,
  UIBarButtonSystemItemBookmarks,
  UIBarButtonSystemItemSearch,
  UIBarButtonSystemItemRefresh,
  UIBarButtonSystemItemStop,
  UIBarButtonSystemItemCamera,
  UIBarButtonSystemItemTrash,
  UIBarButtonSystemItemPlay,
  UIBarButtonSystemItemPause,
  UIBarButtonSystemItemRewind,
  UIBarButtonSystemItemFastForward,
  UIBarButtonSystemItemUndo,
  UIBarButtonSystemItemRedo,
  UIBarButtonSystemItemPageCurl,
  UIBarButtonSystemItemClose,
} NS_SWIFT_NAME(UIBarButtonItem.SystemItem);

// UIPopoverPresentationControllerSourceItem.h (iPhoneOS16.5.sdk): not NS_SWIFT_UI_ACTOR.
@protocol UIPopoverPresentationControllerSourceItem <NSObject>
@end

NS_SWIFT_UI_ACTOR
@interface UIBarButtonItem : UIBarItem <UIPopoverPresentationControllerSourceItem>
- (instancetype)init NS_DESIGNATED_INITIALIZER;
- (instancetype)initWithImage:(nullable UIImage *)image
                        style:(UIBarButtonItemStyle)style
                       target:(nullable id)target
                       action:(nullable SEL)action;
- (instancetype)initWithTitle:(nullable NSString *)title
                        style:(UIBarButtonItemStyle)style
                       target:(nullable id)target
                       action:(nullable SEL)action;
- (instancetype)initWithBarButtonSystemItem:(UIBarButtonSystemItem)systemItem
                                     target:(nullable id)target
                                     action:(nullable SEL)action;
@property (nonatomic) UIBarButtonItemStyle style;
@property (nullable, nonatomic, weak) id target;
@property (nullable, nonatomic) SEL action;
@end

@class UIViewController;

@class UIPresentationController;

// UIPresentationController.h (iPhoneOS16.5.sdk): the non-deprecated dismissal methods (iOS 13),
// which replace the popover delegate's deprecated should-dismiss / did-dismiss.
NS_SWIFT_UI_ACTOR
@protocol UIAdaptivePresentationControllerDelegate <NSObject>
@optional
- (BOOL)presentationControllerShouldDismiss:(UIPresentationController *)presentationController;
- (void)presentationControllerWillDismiss:(UIPresentationController *)presentationController;
- (void)presentationControllerDidDismiss:(UIPresentationController *)presentationController;
// UIKit.apinotes (iPhoneOS16.5.sdk) gives it this Swift name.
- (void)presentationControllerDidAttemptToDismiss:(UIPresentationController *)presentationController
    NS_SWIFT_NAME(presentationControllerDidAttemptToDismiss(_:));
@end

// UIPresentationController.h (iPhoneOS16.5.sdk): the popover controller's superclass.
NS_SWIFT_UI_ACTOR
@interface UIPresentationController : NSObject
@property (nullable, nonatomic, weak) id<UIAdaptivePresentationControllerDelegate> delegate;
@property (nonatomic, strong, readonly) UIViewController *presentedViewController NS_SWIFT_NAME(presentedViewController);
@end

// UIPopoverPresentationController.h (iPhoneOS16.5.sdk): API_UNAVAILABLE(tvos), as is the class.
NS_SWIFT_UI_ACTOR
@protocol UIPopoverPresentationControllerDelegate <UIAdaptivePresentationControllerDelegate>
@optional
// UIKit.apinotes (iPhoneOS16.5.sdk) gives it this Swift name.
- (void)prepareForPopoverPresentation:(UIPopoverPresentationController *)popoverPresentationController
    NS_SWIFT_NAME(prepareForPopoverPresentation(_:));
@end

NS_SWIFT_UI_ACTOR
@interface UIPopoverPresentationController : UIPresentationController
@property (nullable, nonatomic, weak) id<UIPopoverPresentationControllerDelegate> delegate;
@property (nullable, nonatomic, strong) UIView *sourceView NS_SWIFT_NAME(sourceView);
@property (nonatomic, assign) CGRect sourceRect;
@property (nullable, nonatomic, strong) id<UIPopoverPresentationControllerSourceItem> sourceItem;
// Deprecated in iOS 16, below the package's iOS 18 minimum: marked deprecated unconditionally so
// that a use is a warning here too (an error with -warnings-as-errors).
@property (nullable, nonatomic, strong) UIBarButtonItem *barButtonItem NS_SWIFT_NAME(barButtonItem)
    __attribute__((deprecated("Use sourceItem instead")));
@end

@class UINavigationController;

NS_SWIFT_UI_ACTOR
@interface UINavigationItem : NSObject <NSCoding>
- (instancetype)initWithTitle:(NSString *)title NS_DESIGNATED_INITIALIZER;
- (nullable instancetype)initWithCoder:(NSCoder *)coder NS_DESIGNATED_INITIALIZER;
@property (nullable, nonatomic, copy) NSString *title;
@property (nullable, nonatomic, strong) UIBarButtonItem *leftBarButtonItem;
@property (nullable, nonatomic, strong) UIBarButtonItem *rightBarButtonItem;
@property (nullable, nonatomic, copy) NSArray<UIBarButtonItem *> *rightBarButtonItems;
@end

// UIViewController.h (iPhoneOS16.5.sdk); UIModalPresentationBlurOverFullScreen (tvOS only,
// API_UNAVAILABLE(ios)) left out.
typedef NS_ENUM(NSInteger, UIModalPresentationStyle) {
  UIModalPresentationFullScreen = 0,
  UIModalPresentationPageSheet,
  UIModalPresentationFormSheet,
  UIModalPresentationCurrentContext,
  UIModalPresentationCustom,
  UIModalPresentationOverFullScreen,
  UIModalPresentationOverCurrentContext,
  UIModalPresentationPopover,
  UIModalPresentationNone = -1,
  UIModalPresentationAutomatic = -2,
};

NS_SWIFT_UI_ACTOR
@interface UIViewController : UIResponder <NSCoding>
- (instancetype)initWithNibName:(nullable NSString *)nibNameOrNil
                         bundle:(nullable NSBundle *)nibBundleOrNil NS_DESIGNATED_INITIALIZER;
- (nullable instancetype)initWithCoder:(NSCoder *)coder NS_DESIGNATED_INITIALIZER;
@property (null_resettable, nonatomic, strong) UIView *view;
@property (nullable, nonatomic, copy) NSString *title;
@property (nonatomic, readonly, strong) UINavigationItem *navigationItem;
- (void)viewDidLoad;
- (void)viewWillAppear:(BOOL)animated;
- (void)viewDidAppear:(BOOL)animated;
- (void)viewWillDisappear:(BOOL)animated;
- (void)viewDidDisappear:(BOOL)animated;
@property (nullable, nonatomic, readonly) UIViewController *presentedViewController NS_SWIFT_NAME(presentedViewController);
@property (nullable, nonatomic, readonly) UIViewController *presentingViewController NS_SWIFT_NAME(presentingViewController);
@property (nullable, nonatomic, readonly, strong) UINavigationController *navigationController NS_SWIFT_NAME(navigationController);
@property (nullable, nonatomic, readonly) UIPopoverPresentationController *popoverPresentationController NS_SWIFT_NAME(popoverPresentationController);
@property (nullable, nonatomic, readonly) UIPresentationController *presentationController NS_SWIFT_NAME(presentationController);
@property (nonatomic, assign) UIModalPresentationStyle modalPresentationStyle;
// UIViewController.h (iPhoneOS16.5.sdk): both are NS_SWIFT_DISABLE_ASYNC, so `await
// dismiss(animated:)` is the synchronous call and waits for nothing.
- (void)presentViewController:(UIViewController *)viewControllerToPresent
                     animated:(BOOL)flag
                   completion:(void (^_Nullable)(void))completion NS_SWIFT_DISABLE_ASYNC;
- (void)dismissViewControllerAnimated:(BOOL)flag completion:(void (^_Nullable)(void))completion NS_SWIFT_DISABLE_ASYNC;
@end

typedef NS_ENUM(NSInteger, UIAlertActionStyle) {
  UIAlertActionStyleDefault = 0,
  UIAlertActionStyleCancel,
  UIAlertActionStyleDestructive
} NS_SWIFT_NAME(UIAlertAction.Style);

typedef NS_ENUM(NSInteger, UIAlertControllerStyle) {
  UIAlertControllerStyleActionSheet = 0,
  UIAlertControllerStyleAlert
} NS_SWIFT_NAME(UIAlertController.Style);

NS_SWIFT_UI_ACTOR
@interface UIAlertAction : NSObject
+ (instancetype)actionWithTitle:(nullable NSString *)title
                          style:(UIAlertActionStyle)style
                        handler:(void (^_Nullable)(UIAlertAction *action))handler;
@property (nullable, nonatomic, readonly) NSString *title;
@property (nonatomic, readonly) UIAlertActionStyle style;
@property (nonatomic, getter=isEnabled) BOOL enabled;
@end

NS_SWIFT_UI_ACTOR
@interface UIAlertController : UIViewController
+ (instancetype)alertControllerWithTitle:(nullable NSString *)title
                                 message:(nullable NSString *)message
                          preferredStyle:(UIAlertControllerStyle)preferredStyle;
- (void)addAction:(UIAlertAction *)action;
@property (nonatomic, readonly) NSArray<UIAlertAction *> *actions;
@property (nonatomic, strong, nullable) UIAlertAction *preferredAction NS_SWIFT_NAME(preferredAction);
- (void)addTextFieldWithConfigurationHandler:(void (^_Nullable)(UITextField *textField))configurationHandler;
@property (nullable, nonatomic, readonly) NSArray<UITextField *> *textFields;
@property (nullable, nonatomic, copy) NSString *message;
@property (nonatomic, readonly) UIAlertControllerStyle preferredStyle;
@end

NS_SWIFT_UI_ACTOR
@protocol UINavigationControllerDelegate <NSObject>
@optional
- (void)navigationController:(UINavigationController *)navigationController
      willShowViewController:(UIViewController *)viewController
                    animated:(BOOL)animated;
- (void)navigationController:(UINavigationController *)navigationController
       didShowViewController:(UIViewController *)viewController
                    animated:(BOOL)animated;
@end

NS_SWIFT_UI_ACTOR
@interface UINavigationController : UIViewController
- (instancetype)initWithRootViewController:(UIViewController *)rootViewController NS_DESIGNATED_INITIALIZER;
@property (nullable, nonatomic, weak) id<UINavigationControllerDelegate> delegate;
@property (nullable, nonatomic, readonly, strong) UIViewController *topViewController NS_SWIFT_NAME(topViewController);
@end

typedef NS_ENUM(NSInteger, UIImagePickerControllerSourceType) {
  UIImagePickerControllerSourceTypePhotoLibrary = 0,
  UIImagePickerControllerSourceTypeCamera = 1,
  UIImagePickerControllerSourceTypeSavedPhotosAlbum = 2,
} NS_SWIFT_NAME(UIImagePickerController.SourceType);

typedef NSString *UIImagePickerControllerInfoKey NS_TYPED_ENUM NS_SWIFT_NAME(UIImagePickerController.InfoKey);
extern UIImagePickerControllerInfoKey const UIImagePickerControllerMediaType;
extern UIImagePickerControllerInfoKey const UIImagePickerControllerOriginalImage;
extern UIImagePickerControllerInfoKey const UIImagePickerControllerEditedImage;
extern UIImagePickerControllerInfoKey const UIImagePickerControllerMediaURL;

@class UIImagePickerController;

NS_SWIFT_UI_ACTOR
@protocol UIImagePickerControllerDelegate <NSObject>
@optional
- (void)imagePickerController:(UIImagePickerController *)picker
    didFinishPickingMediaWithInfo:(NSDictionary<UIImagePickerControllerInfoKey, id> *)info;
- (void)imagePickerControllerDidCancel:(UIImagePickerController *)picker;
@end

NS_SWIFT_UI_ACTOR
@interface UIImagePickerController : UINavigationController
+ (BOOL)isSourceTypeAvailable:(UIImagePickerControllerSourceType)sourceType;
@property (nonatomic) UIImagePickerControllerSourceType sourceType;
@property (nonatomic) BOOL allowsEditing;
@property (nullable, nonatomic, weak) id<UINavigationControllerDelegate, UIImagePickerControllerDelegate> delegate;
@end

NS_ASSUME_NONNULL_END
