// Stub of WebKit for type-checking ClosureKitUIKit on Linux only, transcribed from the headers of
// iPhoneOS16.5.sdk (WebKit.framework/Headers): the web view's navigation delegate and the types its
// methods pass, as far as the layer and the code written against it use them.
// Scripts/compare-stubs.sh checks every declaration here against what Swift imports from the SDK.
// Never compiled into anything that runs.
#pragma once
#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

// WKNavigationAction.h
typedef NS_ENUM(NSInteger, WKNavigationType) {
  WKNavigationTypeLinkActivated,
  WKNavigationTypeFormSubmitted,
  WKNavigationTypeBackForward,
  WKNavigationTypeReload,
  WKNavigationTypeFormResubmitted,
  WKNavigationTypeOther = -1,
};

// WKNavigationAction.h: not NS_SWIFT_UI_ACTOR.
@interface WKNavigationAction : NSObject
@property (nonatomic, readonly) WKNavigationType navigationType;
@end

// WKNavigation.h: not NS_SWIFT_UI_ACTOR.
@interface WKNavigation : NSObject
@end

// WKWebViewConfiguration.h
@interface WKWebViewConfiguration : NSObject
@end

// WKNavigationResponse.h: not NS_SWIFT_UI_ACTOR.
@interface WKNavigationResponse : NSObject
@property (nonatomic, readonly, getter=isForMainFrame) BOOL forMainFrame;
@end

// WKNavigationDelegate.h
typedef NS_ENUM(NSInteger, WKNavigationActionPolicy) {
  WKNavigationActionPolicyCancel,
  WKNavigationActionPolicyAllow,
  WKNavigationActionPolicyDownload,
};

typedef NS_ENUM(NSInteger, WKNavigationResponsePolicy) {
  WKNavigationResponsePolicyCancel,
  WKNavigationResponsePolicyAllow,
  WKNavigationResponsePolicyDownload,
};

@class WKWebView;

// WKNavigationDelegate.h: not NS_SWIFT_UI_ACTOR, so its requirements are nonisolated. WK_SWIFT_ASYNC
// is NS_SWIFT_ASYNC (WKFoundation.h).
@protocol WKNavigationDelegate <NSObject>
@optional
- (void)webView:(WKWebView *)webView
    decidePolicyForNavigationAction:(WKNavigationAction *)navigationAction
                    decisionHandler:(void (^)(WKNavigationActionPolicy))decisionHandler NS_SWIFT_ASYNC(3);
// Its Swift name is the navigation action's: `#selector` on the protocol is ambiguous, as in the SDK.
- (void)webView:(WKWebView *)webView
    decidePolicyForNavigationResponse:(WKNavigationResponse *)navigationResponse
                      decisionHandler:(void (^)(WKNavigationResponsePolicy))decisionHandler NS_SWIFT_ASYNC(3);
- (void)webView:(WKWebView *)webView didStartProvisionalNavigation:(null_unspecified WKNavigation *)navigation;
- (void)webView:(WKWebView *)webView
    didFailProvisionalNavigation:(null_unspecified WKNavigation *)navigation
                       withError:(NSError *)error;
- (void)webView:(WKWebView *)webView didFinishNavigation:(null_unspecified WKNavigation *)navigation;
- (void)webView:(WKWebView *)webView
    didFailNavigation:(null_unspecified WKNavigation *)navigation
            withError:(NSError *)error;
- (void)webViewWebContentProcessDidTerminate:(WKWebView *)webView;
@end

// WKWebView.h: not NS_SWIFT_UI_ACTOR itself; main actor as a UIView.
@interface WKWebView : UIView
@property (nullable, nonatomic, weak) id<WKNavigationDelegate> navigationDelegate;
- (instancetype)initWithFrame:(CGRect)frame configuration:(WKWebViewConfiguration *)configuration NS_DESIGNATED_INITIALIZER;
- (nullable instancetype)initWithCoder:(NSCoder *)coder NS_DESIGNATED_INITIALIZER;
@property (nullable, nonatomic, readonly, copy) NSString *title;
@property (nonatomic, readonly, getter=isLoading) BOOL loading;
@end

NS_ASSUME_NONNULL_END
