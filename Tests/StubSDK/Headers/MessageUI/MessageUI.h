// Stub of MessageUI for type-checking ClosureKitUIKit on Linux only, transcribed from the headers of
// iPhoneOS16.5.sdk (MessageUI.framework/Headers): the composers, their delegates and results that
// the layer and the code written against it use. Scripts/compare-stubs.sh checks every declaration
// here against what Swift imports from the SDK. Never compiled into anything that runs.
#pragma once
#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

// MFMailComposeViewController.h
typedef NS_ENUM(NSInteger, MFMailComposeResult) {
  MFMailComposeResultCancelled,
  MFMailComposeResultSaved,
  MFMailComposeResultSent,
  MFMailComposeResultFailed
};

@protocol MFMailComposeViewControllerDelegate;

// MFMailComposeViewController.h: not NS_SWIFT_UI_ACTOR itself; main actor as a UINavigationController.
@interface MFMailComposeViewController : UINavigationController
+ (BOOL)canSendMail;
@property (nonatomic, nullable, weak) id<MFMailComposeViewControllerDelegate> mailComposeDelegate;
- (void)setSubject:(NSString *)subject;
- (void)setToRecipients:(nullable NSArray<NSString *> *)toRecipients;
- (void)setMessageBody:(NSString *)body isHTML:(BOOL)isHTML;
@end

// MFMailComposeViewController.h: not NS_SWIFT_UI_ACTOR, so its requirement is nonisolated.
@protocol MFMailComposeViewControllerDelegate <NSObject>
@optional
- (void)mailComposeController:(MFMailComposeViewController *)controller
          didFinishWithResult:(MFMailComposeResult)result
                        error:(nullable NSError *)error;
@end

// MFMessageComposeViewController.h
typedef NS_ENUM(NSInteger, MessageComposeResult) {
  MessageComposeResultCancelled,
  MessageComposeResultSent,
  MessageComposeResultFailed
};

@protocol MFMessageComposeViewControllerDelegate;

// MFMessageComposeViewController.h: not NS_SWIFT_UI_ACTOR itself; main actor as a
// UINavigationController.
@interface MFMessageComposeViewController : UINavigationController
+ (BOOL)canSendText;
@property (nonatomic, nullable, weak) id<MFMessageComposeViewControllerDelegate> messageComposeDelegate;
@property (nonatomic, nullable, copy) NSArray<NSString *> *recipients;
@property (nonatomic, nullable, copy) NSString *body;
@end

// MFMessageComposeViewController.h: not NS_SWIFT_UI_ACTOR; its one method is @required.
@protocol MFMessageComposeViewControllerDelegate <NSObject>
@required
- (void)messageComposeViewController:(MFMessageComposeViewController *)controller
                 didFinishWithResult:(MessageComposeResult)result;
@end

NS_ASSUME_NONNULL_END
