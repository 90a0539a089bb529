/// An immutable copy of the observers of an ``ObservedStorage``, which the delivering thread reads
/// without retaining it (see ``ObservedStorage/deliveringThread``).
///
/// `@unchecked Sendable`: immutable.
@usableFromInline
final class ObserverList: @unchecked Sendable {
  /// The observers, each with its handler of the storage's value type.
  @usableFromInline let observers: ContiguousArray<ObserverEntry>

  @usableFromInline
  init(_ observers: ContiguousArray<ObserverEntry>) {
    self.observers = observers
  }
}

/// The observers of an ``ObservedStorage`` and what is counted of them: not generic (see
/// ``ObservedObserver``), and guarded by the storage's mutex, which it has no reference to.
///
/// The write path reads ``list``, a copy made by the first write after a change and kept until
/// the next change. A change drops it first, so that the array it shared with ``observers`` is
/// changed in place: registration and cancellation copy no array and allocate no list (they did,
/// both, and it was most of their cost).
///
/// `@unchecked Sendable`: every property is read and written only under the storage's mutex (the
/// delivering thread also reads ``list``'s object outside it, see
/// ``ObservedStorage/deliveringThread``).
@usableFromInline
final class ObserverRegistry: @unchecked Sendable {
  /// Live observers in registration order.
  @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<ObserverEntry> = []
  /// ``observers`` as the write path reads them; `nil` after a change until the next write.
  @usableFromInline @exclusivity(unchecked) var list: ObserverList?
  /// Lists dropped while a thread delivered, which it may still be reading; released when it
  /// leaves.
  @usableFromInline @exclusivity(unchecked) var retired: [ObserverList] = []
  /// How many live observers asked for ``ObservationOptions/prior``.
  @usableFromInline @exclusivity(unchecked) var priorCount = 0
  /// How many live observers were registered with an owner (swept on registration).
  @usableFromInline @exclusivity(unchecked) var ownerBoundCount = 0

  @usableFromInline init() {}

  /// ``list``, made now if a change dropped it.
  @inlinable
  func currentList() -> ObserverList {
    if let list { return list }
    return makeList()
  }

  @usableFromInline
  func makeList() -> ObserverList {
    let made = ObserverList(observers)
    list = made
    return made
  }

  /// Before a change of ``observers``: lets go of ``list``, into ``retired`` when `isRead` (the
  /// delivering thread may be reading it without a retain). Otherwise it is released at once: it
  /// shares its array with ``observers``, so this is never the last reference to an observer.
  @usableFromInline
  func dropList(isRead: Bool) {
    guard let dropped = list else { return }
    list = nil
    if isRead { retired.append(dropped) }
  }

  /// Adds an observer with its handler. Returns whether owner-bound observers should be swept:
  /// never when the only one is the observer just added, whose caller holds its owner.
  @usableFromInline
  func append(_ entry: __owned ObserverEntry, isPrior: Bool, isOwnerBound: Bool) -> Bool {
    // The caller says what the counts need: reading it from the entry's observer here cost a
    // retain and a release of the observer.
    if isPrior { priorCount += 1 }
    if isOwnerBound { ownerBoundCount += 1 }
    observers.append(entry)
    return ownerBoundCount > (isOwnerBound ? 1 : 0)
  }

  /// The position of `observer` among the live observers, if it is one. Searched from the newest,
  /// the one most often cancelled (a screen that binds and unbinds).
  @usableFromInline
  func index(of observer: ObservedObserver) -> Int? {
    let target = Unmanaged.passUnretained(observer).toOpaque()
    return observers.withUnsafeBufferPointer { observers -> Int? in
      guard let base = observers.baseAddress else { return nil }
      var index = observers.count
      while index > 0 {
        index -= 1
        if ObserverEntry.observer(at: base + index).toOpaque() == target { return index }
      }
      return nil
    }
  }

  /// Removes the live observer at `index` and returns its entry, to be released after the mutex.
  @usableFromInline
  func remove(at index: Int) -> ObserverEntry {
    // The newest is the one most often cancelled: `removeLast()` moves nothing.
    let entry = index == observers.count - 1 ? observers.removeLast() : observers.remove(at: index)
    if entry.observer.options.contains(.prior) { priorCount -= 1 }
    if entry.observer.isOwnerBound { ownerBoundCount -= 1 }
    return entry
  }

  /// Removes every observer and returns the entries, to be released after the mutex.
  @usableFromInline
  func removeAll() -> ContiguousArray<ObserverEntry> {
    let removed = observers
    observers = []
    priorCount = 0
    ownerBoundCount = 0
    return removed
  }
}
