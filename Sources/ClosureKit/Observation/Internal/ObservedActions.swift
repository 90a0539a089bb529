// What the transitions of an `Observed` box's state (`ObservedState`) return: the values a thread
// acts on after the lock.

/// One change for the observers of a box: a write, or a registration's initial callback.
///
/// A struct, not an enum with a case for each: a generic enum's payloads are copied through its
/// value witnesses even in code specialised for the value type, which tripled a write's cost.
@usableFromInline
struct ObservedChange<Value: Sendable> {
  @usableFromInline typealias Entry = HandlerEntry<Change<Value>, ObservationOptions>

  /// The value the write replaced; `nil` for an initial callback.
  @usableFromInline let old: Value?
  /// The value written; for an initial callback, the value at registration.
  @usableFromInline let new: Value
  /// Who is told: for a write, the observers registered before it (a snapshot of the registry);
  /// for an initial callback, the registration's own entry.
  @usableFromInline let observers: ContiguousArray<Entry>
  /// The registry's version of `observers`, for a write (queued writes to the same observers are
  /// delivered as one change); -1 for an initial callback.
  @usableFromInline let version: Int

  /// A write.
  @inlinable
  init(old: Value, new: Value, observers: ContiguousArray<Entry>, version: Int) {
    self.old = old
    self.new = new
    self.observers = observers
    self.version = version
  }

  /// The initial callback of the registration `entry`.
  @inlinable
  init(initial value: Value, for entry: Entry) {
    self.old = nil
    self.new = value
    self.observers = [entry]
    self.version = -1
  }

  /// Whether this is an initial callback.
  @inlinable var isInitial: Bool { version < 0 }
}

/// Who delivers a change, as ``ObservedState/schedule(_:by:)`` decides.
@usableFromInline
enum ObservedStep: UInt8 {
  /// Nobody is told now: the change is queued for the delivering thread (another one, or this one
  /// further up its stack), or there is nobody to tell.
  case none
  /// The caller queues the change for the delivering thread (``ObservedState/pending``); then
  /// `none`.
  case queue
  /// This thread delivers the change now (it is the delivering thread, and nothing is queued).
  case deliver
  /// This thread became the delivering thread: it delivers the change, then what was queued
  /// meanwhile, and leaves (``ObservedState/leave(_:)``).
  case deliverAndLeave
}

/// What a write's thread does after the lock. Optionals-free and with no collection: a write is
/// the hot path, and a struct of generic optionals, or one holding an array, was copied and
/// destroyed through value witnesses even in code specialised for the value type (an outlined
/// destroy that function merging made generic; `Benchmarks/README.md`, second pass). The observers
/// to tell, when the write does not borrow the single observer's box, are handed back through
/// the transition's `inout` argument instead.
@usableFromInline
struct ObservedWrite<Value: Sendable> {
  /// The value the write replaced (released with the struct when nobody is told).
  @usableFromInline let old: Value
  /// The handler of the one observer to tell, borrowed (see `ObservedBorrow.swift`), when there
  /// is exactly one, plain and not a one-shot; the observers are not copied then.
  @usableFromInline let borrowed: Unmanaged<SingleHandler<Change<Value>, ObservationOptions>>?
  /// Who delivers.
  @usableFromInline let step: ObservedStep
  /// The write whose old value reads show until its prior callbacks have run
  /// (``ObservedState/endPrior(of:)``), or 0.
  @usableFromInline let showsPriorOf: Int

  @inlinable
  init(
    old: Value,
    borrowed: Unmanaged<SingleHandler<Change<Value>, ObservationOptions>>? = nil,
    step: ObservedStep = .none,
    showsPriorOf: Int = 0
  ) {
    self.old = old
    self.borrowed = borrowed
    self.step = step
    self.showsPriorOf = showsPriorOf
  }
}

/// What a registration's thread does after the lock: deliver its initial callback, or nothing.
@usableFromInline
struct ObservedRegistration<Value: Sendable>: RegistrationResult {
  /// What the registry left to do.
  @usableFromInline let outcome: RegistrationOutcome
  /// The initial callback to deliver now, if ``step`` says so.
  @usableFromInline let initial: ObservedChange<Value>?
  /// Who delivers it.
  @usableFromInline let step: ObservedStep
  /// The single observer's box, dropped by the registration, to release after the lock.
  @usableFromInline let dropped: SingleHandler<Change<Value>, ObservationOptions>?
  /// The registering thread (``currentThreadHandle``), which leaves after the initial callback when
  /// ``step`` is `deliverAndLeave`.
  @usableFromInline let me: Int

  @inlinable
  init(
    _ outcome: RegistrationOutcome,
    initial: ObservedChange<Value>? = nil,
    step: ObservedStep = .none,
    dropped: SingleHandler<Change<Value>, ObservationOptions>?,
    by me: Int
  ) {
    self.outcome = outcome
    self.initial = initial
    self.step = step
    self.dropped = dropped
    self.me = me
  }
}
