#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

/// Whether this process runs under ThreadSanitizer (its runtime exports `__tsan_init`).
///
/// ThreadSanitizer does not see the Swift runtime's reference counts, so the happens-before edge a
/// copy-on-write array gets from them (a reader's release of its copy, then a writer's uniqueness
/// check) is invisible to it; the registry adds an atomic edge it can see while this is `true`
/// (``HandlerList/snapshotsRead``), and costs one load of this constant otherwise.
@usableFromInline
package let isUnderThreadSanitizer: Bool = "__tsan_init".withCString { dlsym(dlopen(nil, RTLD_NOW), $0) != nil }
