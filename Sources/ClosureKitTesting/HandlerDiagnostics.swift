public import ClosureKit
import Synchronization

/// Where a handler was registered, as recorded while ``HandlerDiagnostics`` are on.
///
/// ```swift
/// let site = HandlerSite(fileID: "App/Screen.swift", line: 42)
/// print(site)   // App/Screen.swift:42
/// ```
public struct HandlerSite: Sendable, Hashable, CustomStringConvertible {
  /// The `#fileID` of the registration call, `Module/File.swift`.
  public let fileID: String
  /// The `#line` of the registration call.
  public let line: Int

  /// Creates a site; ClosureKit makes them from the `#fileID` and `#line` of each registration.
  ///
  /// ```swift
  /// let site = HandlerSite(fileID: "App/Screen.swift", line: 42)
  /// ```
  ///
  /// - Parameters:
  ///   - fileID: `Module/File.swift`.
  ///   - line: The line of the call.
  public init(fileID: String, line: Int) {
    self.fileID = fileID
    self.line = line
  }

  init(_ site: RegistrationSite) {
    self.init(fileID: site.fileID.description, line: Int(site.line))
  }

  /// `fileID:line`.
  public var description: String { "\(fileID):\(line)" }
}

/// Opt-in diagnostics for two silent mistakes: a handler registered with an owner that is already
/// being deinitialised (it can never run), and a handler that should have ended but is still
/// registered (a leak), which `Event.liveHandlerSites` names by its registration site.
///
/// ```swift
/// HandlerDiagnostics.enable { site in print("owner already gone at", site) }
/// defer { HandlerDiagnostics.disable() }
///
/// let saved = Event<String>()
/// let bag = SubscriptionBag()
/// saved.addHandler { print("saved", $0) }.store(in: bag)
/// saved.addHandler { print("logged", $0) }   // meant to go into the bag too
/// bag.cancelAll()
/// for site in saved.liveHandlerSites {
///   print("still registered:", site?.description ?? "unknown")   // names the second line
/// }
/// ```
///
/// Off by default, and free when off: a send never looks at the switch, and a registration reads
/// one atomic flag (the `#fileID` and `#line` every registration method takes as defaulted
/// arguments are passed, not stored). While on, each registration stores its site until the
/// handler ends.
///
/// > Important: The switch is process-wide and may be flipped from any thread; tests that run in
/// > parallel see each other's registrations recorded, which costs memory but changes no behaviour.
/// > The reporter runs on the registering thread, outside every ClosureKit lock.
public enum HandlerDiagnostics {
  /// Turns diagnostics on: registrations record their call site, and `report` is called for each
  /// registration whose owner is already being deinitialised.
  ///
  /// ```swift
  /// HandlerDiagnostics.enable()   // prints a warning for each dead owner
  /// ```
  ///
  /// - Parameter report: Receives the site of each registration whose owner is already gone.
  ///   Defaults to printing a warning.
  ///
  /// > Important: An owner that is alive when it is registered and dies right after (a temporary
  /// > object passed as `owner:`) is not reported; `Event.liveHandlerSites` then lists the
  /// > handler until the event's next send or registration sweeps it.
  public static func enable(
    onDeadOwner report: @escaping @Sendable (HandlerSite) -> Void = { site in
      print(
        "ClosureKit: handler registered at \(site) with an owner that is already being deinitialised; it will never run"
      )
    }
  ) {
    DiagnosticsSwitch.enable { site in report(HandlerSite(site)) }
  }

  /// Turns diagnostics off. Sites already recorded stay until their handlers end.
  ///
  /// ```swift
  /// HandlerDiagnostics.disable()
  /// ```
  public static func disable() {
    DiagnosticsSwitch.disable()
  }

  /// Whether diagnostics are on.
  ///
  /// ```swift
  /// if !HandlerDiagnostics.isEnabled { HandlerDiagnostics.enable() }
  /// ```
  public static var isEnabled: Bool {
    DiagnosticsSwitch.isEnabled
  }
}

extension Event {
  /// Where each live handler of this event was registered, in registration order; `nil` for a
  /// handler registered while ``HandlerDiagnostics`` were off.
  ///
  /// ```swift
  /// HandlerDiagnostics.enable()
  /// let saved = Event<String>()
  /// saved.addHandler { print($0) }
  /// print(saved.liveHandlerSites.map { $0?.description ?? "unknown" })   // ["App/Screen.swift:12"]
  /// ```
  ///
  /// > Important: Handlers whose owner is gone are swept first, so they are not listed.
  ///
  /// - Complexity: O(n) in the number of handlers.
  public var liveHandlerSites: [HandlerSite?] {
    liveRegistrationSites.map { $0.map(HandlerSite.init) }
  }
}

extension ControlActions {
  /// Where each live action was registered, in registration order; `nil` for an action registered
  /// while ``HandlerDiagnostics`` were off.
  ///
  /// ```swift
  /// HandlerDiagnostics.enable()
  /// actions.addAction(for: .touchUpInside) { print("tapped", $0) }
  /// print(actions.liveActionSites)
  /// ```
  ///
  /// > Important: Actions whose owner is gone are swept first, so they are not listed.
  ///
  /// - Complexity: O(n) in the number of actions.
  public var liveActionSites: [HandlerSite?] {
    liveRegistrationSites.map { $0.map(HandlerSite.init) }
  }
}
