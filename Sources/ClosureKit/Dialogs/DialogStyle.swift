/// How a ``Dialog`` is shown: the type parameter that makes a dialog an ``AlertDialog``
/// (``AlertStyle``) or an ``ActionSheetDialog`` (``ActionSheetStyle``).
///
/// ```swift
/// func describe<Style: DialogStyle>(_ dialog: Dialog<Style>) -> String {
///   "\(Style.style == .alert ? "alert" : "sheet") with \(dialog.buttons.count) buttons"
/// }
/// ```
///
/// > Important: A style is a type, never an instance: it carries no state and no isolation. The
/// > two styles here are the ones presenters know (``DialogRequest/Style``).
public protocol DialogStyle: Sendable {
  /// What a presenter is asked to show: ``DialogRequest/style``.
  static var style: DialogRequest.Style { get }
}

/// The style of a centred alert (UIAlertView, `UIAlertController.Style.alert`): ``AlertDialog``.
///
/// ```swift
/// let alert = Dialog<AlertStyle>(title: "Offline")   // the same as AlertDialog(title: "Offline")
/// ```
///
/// > Important: A marker type; it has no instances and no isolation.
public enum AlertStyle: DialogStyle {
  /// ``DialogRequest/Style/alert``.
  public static var style: DialogRequest.Style { .alert }
}

/// The style of a list of choices (UIActionSheet, `UIAlertController.Style.actionSheet`):
/// ``ActionSheetDialog``.
///
/// ```swift
/// let sheet = Dialog<ActionSheetStyle>(title: "Photo")   // the same as ActionSheetDialog(title: "Photo")
/// ```
///
/// > Important: A marker type; it has no instances and no isolation.
public enum ActionSheetStyle: DialogStyle {
  /// ``DialogRequest/Style/actionSheet``.
  public static var style: DialogRequest.Style { .actionSheet }
}
