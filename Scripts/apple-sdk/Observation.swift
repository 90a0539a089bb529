// Declarations of Observation (Swift 5.9, iOS 17) for type-checking against an Apple SDK that
// predates it (iPhoneOS16.5.sdk). Transcribed from the public interface the Swift 6.3.1 toolchain
// ships (lib/swift/linux/Observation.swiftmodule/*.swiftinterface); the macros expand with the
// toolchain's own ObservationMacros plugin. The bodies never run: this module is only
// type-checked against. Never add a UIKit, Foundation, Darwin or Objective-C declaration here.

public protocol Observable {}

@attached(
  member, names: named(_$observationRegistrar), named(access), named(withMutation),
  named(shouldNotifyObservers))
@attached(memberAttribute)
@attached(extension, conformances: Observable)
public macro Observable() = #externalMacro(module: "ObservationMacros", type: "ObservableMacro")

@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(`_`))
public macro ObservationTracked() =
  #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

@attached(accessor)
public macro ObservationIgnored() =
  #externalMacro(module: "ObservationMacros", type: "ObservationIgnoredMacro")

public struct ObservationRegistrar: Sendable, Hashable {
  public init() {}
  public func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {}
  public func willSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {}
  public func didSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {}
  public func withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> T
  ) rethrows -> T { try mutation() }
}

public func withObservationTracking<T>(
  _ apply: () -> T, onChange: @autoclosure () -> @Sendable () -> Void
) -> T { apply() }
