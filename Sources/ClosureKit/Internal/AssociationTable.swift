/// The Linux side table behind ``AssociatedKey``: values keyed by (object identity, key), each
/// stored next to a weak reference to its object.
///
/// - A lookup returns a value only if the entry's weak reference still points to the very object
///   asked about, so a dead object's value is never handed to a new object at a reused address;
///   such a stale entry is removed (and its value released) by the lookup that finds it.
/// - Every access also checks the next entries of a round-robin sweep and removes those whose
///   object is dead: one per lookup, two per write. A write adds at most one entry, so each access
///   shrinks the part of the round still to check by at least one, and an entry whose object died is
///   removed within `n` accesses, `n` being the number of entries when it died.
/// - Removed values are released after the lock is released, so a value's `deinit` may use the
///   table. So are the objects the sweep loads from weak references: if another thread drops an
///   object's last reference while the sweep holds it, the object's `deinit` may use the table.
///
/// Every access is O(1): one hash lookup, at most three weak loads, O(1) removals (entries live in
/// a dense array and a removal swaps the last entry into the hole). Amortised O(1) where the array
/// or the dictionary grows.
package final class AssociationTable: Sendable {
  /// The table every ``AssociatedKey`` uses on Linux.
  package static let shared = AssociationTable()

  /// How many entries a lookup checks for dead objects.
  static let lookupSweep = 1
  /// How many entries a write checks for dead objects: one more than it may add.
  static let writeSweep = 2

  /// The entries, guarded by a mutex.
  private let state = Locked(State())

  package init() {}

  /// The number of entries, dead or alive, not yet removed.
  package var count: Int {
    state.withLock { $0.entries.count }
  }

  /// The next entry the sweep will check (for tests).
  package var sweepCursor: Int {
    state.withLock { $0.cursor }
  }

  /// The value for `key` on `object`, if `object` is the live object it was set for.
  package func value(for object: AnyObject, key: UInt) -> AnyObject? {
    var garbage = Garbage()
    var swept = Swept()
    let slot = Slot(object: ObjectIdentifier(object), key: key)
    let result: AnyObject? = state.withLock { state in
      state.sweep(AssociationTable.lookupSweep, into: &garbage, keeping: &swept)
      guard let index = state.indices[slot] else { return nil }
      if state.entries[index].object === object { return state.entries[index].value }
      garbage.append(state.remove(at: index))
      return nil
    }
    withExtendedLifetime((garbage, swept)) {}
    return result
  }

  /// Sets (or with `nil` removes) the value for `key` on `object`.
  package func setValue(_ value: AnyObject?, for object: AnyObject, key: UInt) {
    update(for: object, key: key) { _ in value }
  }

  /// Replaces the value for `key` on `object` with what `transform` returns for the current one.
  /// `transform` runs under the lock and must not use the table.
  package func update(for object: AnyObject, key: UInt, _ transform: (AnyObject?) -> AnyObject?) {
    var garbage = Garbage()
    var swept = Swept()
    let slot = Slot(object: ObjectIdentifier(object), key: key)
    state.withLock { state in
      state.sweep(AssociationTable.writeSweep, into: &garbage, keeping: &swept)
      if let index = state.indices[slot] {
        if state.entries[index].object === object {
          let old = state.entries[index].value
          garbage.append(old)
          if let new = transform(old) {
            state.entries[index].value = new
          } else {
            _ = state.remove(at: index)
          }
          return
        }
        garbage.append(state.remove(at: index))
      }
      guard let new = transform(nil) else { return }
      let entry = Entry(slot: slot, object: object, value: new)
      guard entry.object != nil else {
        // `object` is running its deinit: a weak reference to it is already nil.
        garbage.append(new)
        return
      }
      state.indices[slot] = state.entries.count
      state.entries.append(entry)
    }
    withExtendedLifetime((garbage, swept)) {}
  }
}

extension AssociationTable {
  /// Identifies one association: the object's address and the key's address.
  struct Slot: Hashable {
    /// The object's identity; may be reused by a new object once the object is freed.
    let object: ObjectIdentifier
    /// The ``AssociatedKey/address`` of the key.
    let key: UInt
  }

  /// One association. A class, so that reading its weak reference does not copy it (a weak copy
  /// costs two atomic operations on the object's side table).
  final class Entry {
    /// Where ``State/indices`` finds this entry.
    let slot: Slot
    /// The object the value belongs to; `nil` once it has started to deinitialise.
    weak var object: AnyObject?
    /// The ``AssociatedBox`` holding the value.
    var value: AnyObject

    init(slot: Slot, object: AnyObject, value: AnyObject) {
      self.slot = slot
      self.object = object
      self.value = value
    }
  }

  /// Values taken out of the table under the lock, released after it. An access removes at most
  /// two entries in its sweep, one stale entry, and one replaced value.
  struct Garbage {
    /// The values, in the order added.
    private var first, second, third, fourth: AnyObject?

    mutating func append(_ value: AnyObject) {
      if first == nil {
        first = value
      } else if second == nil {
        second = value
      } else if third == nil {
        third = value
      } else {
        if fourth != nil { failPrecondition("an access removed more than four values") }
        fourth = value
      }
    }
  }

  /// The live objects the sweep loaded under the lock, released after it (the sweep checks at most
  /// ``AssociationTable/writeSweep`` entries).
  struct Swept {
    /// The objects, in the order loaded.
    private var first, second: AnyObject?

    mutating func append(_ object: AnyObject) {
      if first == nil {
        first = object
      } else {
        if second != nil { failPrecondition("the sweep loaded more than two objects") }
        second = object
      }
    }
  }

  /// The table's contents.
  struct State {
    /// Every association, densely packed.
    var entries: [Entry] = []
    /// Where each association is in `entries`.
    var indices: [Slot: Int] = [:]
    /// The next entry the sweep checks. Entries before it were checked in the current round.
    var cursor = 0

    /// Checks the next `count` entries and removes those whose object is dead, adding their
    /// values to `garbage` and the live objects it loaded to `swept`.
    mutating func sweep(_ count: Int, into garbage: inout Garbage, keeping swept: inout Swept) {
      for _ in 0..<count {
        if entries.isEmpty { return }
        if cursor >= entries.count { cursor = 0 }
        if let object = entries[cursor].object {
          // Kept past the lock: it may be the last reference by the time it is released.
          swept.append(object)
          cursor += 1
        } else {
          // The last entry moves into the hole, at the cursor: it is checked next.
          garbage.append(remove(at: cursor))
        }
      }
    }

    /// Removes the entry at `index` in O(1) and returns its value (for release outside the lock).
    /// Keeps the entries already checked in this round before the cursor and the others after it.
    mutating func remove(at index: Int) -> AnyObject {
      var hole = index
      if hole < cursor {
        // Fill the hole with the last checked entry, so the unchecked ones stay together.
        cursor -= 1
        swapEntries(hole, cursor)
        hole = cursor
      }
      swapEntries(hole, entries.count - 1)
      let removed = entries.removeLast()
      indices[removed.slot] = nil
      return removed.value
    }

    /// Swaps two entries and their recorded indices.
    mutating func swapEntries(_ first: Int, _ second: Int) {
      guard first != second else { return }
      entries.swapAt(first, second)
      indices[entries[first].slot] = first
      indices[entries[second].slot] = second
    }
  }
}
