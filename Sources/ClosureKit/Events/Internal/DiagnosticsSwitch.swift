import Synchronization

/// Where a handler was registered: the `#fileID` and `#line` of the registration call.
@usableFromInline
package struct RegistrationSite: Sendable {
  /// The `#fileID` of the call.
  @usableFromInline package let fileID: StaticString
  /// The `#line` of the call.
  @usableFromInline package let line: UInt

  @inlinable
  package init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }
}

/// The process-wide switch behind `ClosureKitTesting.HandlerDiagnostics`: while it is on,
/// registrations record their call site, and a registration whose owner is already being
/// deinitialised is reported.
///
/// Off by default. When off, a registration reads one relaxed atomic and stores nothing, and the
/// send path does not look at it at all.
@usableFromInline
package enum DiagnosticsSwitch {
  /// What the switch holds: the reporter, in a struct so that reading it through the generic
  /// `withLock` adds no reabstraction thunk.
  struct Configuration {
    /// Called with the site of a registration whose owner is already gone.
    var reportDeadOwner: (@Sendable (RegistrationSite) -> Void)?
  }

  /// Whether diagnostics are on; a copy of `configuration.reportDeadOwner != nil`, readable
  /// without the lock.
  static let enabled = Atomic<Bool>(false)
  /// The reporter.
  static let configuration = Locked(Configuration())

  /// Whether diagnostics are on.
  @usableFromInline
  package static var isEnabled: Bool {
    enabled.load(ordering: .relaxed)
  }

  /// Turns diagnostics on; `report` is called, on the registering thread, with the site of each
  /// registration whose owner is already being deinitialised.
  package static func enable(reportingDeadOwners report: @escaping @Sendable (RegistrationSite) -> Void) {
    configuration.withLock { $0.reportDeadOwner = report }
    enabled.store(true, ordering: .relaxed)
  }

  /// Turns diagnostics off; handlers registered meanwhile keep their recorded sites.
  package static func disable() {
    enabled.store(false, ordering: .relaxed)
    let previous = configuration.withLock { $0.reportDeadOwner.take() }
    withExtendedLifetime(previous) {}  // released after the lock
  }

  /// Calls the reporter, outside the lock.
  @usableFromInline
  static func reportDeadOwner(at site: RegistrationSite) {
    let report = configuration.withLock { $0.reportDeadOwner }
    report?(site)
  }
}
