/// The Linux side table behind ``AssociatedKey``: values keyed by (object identity, key), each
/// stored next to a weak reference to its object.
///
/// - A lookup returns a value only if the entry's weak reference still points to the very object
///   asked about, so a dead object's value is never handed to a new object at a reused address;
///   such a stale entry is removed (and its value released) by the lookup that finds it.
/// - Every access also checks the next entries of a round-robin sweep and removes those whose
///   object is dead: two per lookup, three per write. An entry whose object died is removed within
///   `n` accesses, `n` being the number of entries when it died (the proof is at ``State``).
/// - Removed values are released after the lock is released, so a value's `deinit` may use the
///   table. So are the objects the sweep loads from weak references: if another thread drops an
///   object's last reference while the sweep holds it, the object's `deinit` may use the table.
///
/// Every access is O(1): one hash lookup, at most four weak loads, O(1) removals (entries live in
/// a dense array and a removal swaps the last entry into the hole). Amortised O(1) where the array
/// or the dictionary grows.
package final class AssociationTable: Sendable {
  /// The table every ``AssociatedKey`` uses on Linux.
  package static let shared = AssociationTable()

  /// How many entries a lookup checks for dead objects (see ``State`` for why two).
  static let lookupSweep = 2
  /// How many entries a write checks for dead objects: one more than a lookup, for the entry it
  /// may add.
  static let writeSweep = 3

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

  /// The object of the entry at `index` in sweep order, `nil` if it is dead (for tests).
  package func object(at index: Int) -> AnyObject? {
    state.withLock { $0.entries[index].object }
  }

  /// The value for `key` on `object`, if `object` is the live object it was set for.
  package func value(for object: AnyObject, key: UInt) -> AnyObject? {
    var garbage = Held.garbage
    var swept = Held.swept
    let slot = Slot(object: ObjectIdentifier(object), key: key)
    let result: AnyObject? = state.withLock { state in
      state.sweep(AssociationTable.lookupSweep, into: &garbage, keeping: &swept)
      guard let index = state.liveIndex(of: slot, for: object, into: &garbage) else { return nil }
      return state.entries[index].value
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
    var garbage = Held.garbage
    var swept = Held.swept
    let slot = Slot(object: ObjectIdentifier(object), key: key)
    state.withLock { state in
      state.sweep(AssociationTable.writeSweep, into: &garbage, keeping: &swept)
      if let index = state.liveIndex(of: slot, for: object, into: &garbage) {
        state.replaceValue(at: index, with: transform(state.entries[index].value), into: &garbage)
      } else {
        state.store(transform(nil), at: slot, of: object, into: &garbage)
      }
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

  /// Objects taken out of the table under the lock, released after it, without an allocation:
  /// at most five, in the order added. Two uses, each with its own bound:
  /// - ``garbage``: values removed. An access removes at most three entries in its sweep (a write;
  ///   a lookup two), then a stale entry, and then either the replaced value or, from the object's
  ///   own deinit, the value it did not store;
  /// - ``swept``: the live objects the sweep loaded (it checks at most
  ///   ``AssociationTable/writeSweep`` entries).
  struct Held {
    /// The objects, in the order added.
    private var first, second, third, fourth, fifth: AnyObject?
    /// How many were added.
    private var count = 0
    /// How many may be added; at most five.
    private let limit: Int
    /// What an overflow means, for the message.
    private let overflow: String

    private init(limit: Int, overflow: String) {
      self.limit = limit
      self.overflow = overflow
    }

    /// For the values an access removes.
    static var garbage: Held { Held(limit: 5, overflow: "an access removed more than five values") }
    /// For the objects a sweep loads.
    static var swept: Held { Held(limit: 3, overflow: "the sweep loaded more than three objects") }

    mutating func append(_ object: AnyObject) {
      switch count {
      case 0: first = object
      case 1: second = object
      case 2: third = object
      case 3: fourth = object
      case 4: fifth = object
      default: break
      }
      count += 1
      if count > limit { failPrecondition(overflow) }
    }
  }

  /// The table's contents.
  ///
  /// The sweep goes round `entries` from index 0 up: `entries[..<cursor]` were checked in the
  /// current round, `entries[cursor...]` were not. Every operation keeps those two parts apart: a
  /// check moves the cursor past a live entry or removes a dead one, ``remove(at:)`` refills a
  /// hole from the same part, and a new entry joins the checked part (it is live: it is being set).
  ///
  /// Why an entry whose object died is removed within `n` accesses, `n` being the number of
  /// entries then. Let `u` be the number of unchecked entries and `c` the number of entries.
  /// - An unchecked entry is checked within `u` checks: each check takes one unchecked entry
  ///   (the entry moved into a hole at the cursor is unchecked too, so it does not jump the line).
  /// - A checked entry is checked within `u + c` checks: the round ends after `u`, and in the next
  ///   round every entry is unchecked, so `u = c` then. When the entry dies, `u + c ≤ 2n - 1`
  ///   (at least the entry itself is checked, so `u ≤ n - 1`).
  /// - Each check lowers the bound by at least 1 (a live entry: `u - 1`; a dead one: `u - 1` and
  ///   `c - 1`). A lookup makes 2 checks and adds nothing; a write makes 3 and adds at most one
  ///   entry, to the checked part, which raises `u + c` by 1 and leaves `u` as it is. Removals
  ///   outside the sweep lower `c`, and `u` when unchecked. So every access lowers the bound by at
  ///   least 2, and `n` accesses take it from `2n - 1` below 1: the entry has been checked, and
  ///   being dead, removed.
  ///
  /// With one check per lookup (the first version), removals pulled unchecked entries from the
  /// end of the round to the cursor, so an entry that died just behind the cursor waited for the
  /// rest of the round and then most of the next: 1,374 accesses with 1,000 entries.
  struct State {
    /// Every association, densely packed.
    var entries: [Entry] = []
    /// Where each association is in `entries`.
    var indices: [Slot: Int] = [:]
    /// The next entry the sweep checks. Entries before it were checked in the current round.
    var cursor = 0

    /// The index of the entry for `slot` if it belongs to `object`. A stale entry there (a dead
    /// object's, at a reused address) is removed, its value added to `garbage`.
    mutating func liveIndex(of slot: Slot, for object: AnyObject, into garbage: inout Held) -> Int? {
      guard let index = indices[slot] else { return nil }
      if entries[index].object === object { return index }
      garbage.append(remove(at: index))
      return nil
    }

    /// Replaces the value of the entry at `index` with `value` (`nil`: removes the entry), adding
    /// the old value to `garbage`.
    mutating func replaceValue(at index: Int, with value: AnyObject?, into garbage: inout Held) {
      if let value {
        garbage.append(entries[index].value)
        entries[index].value = value
      } else {
        garbage.append(remove(at: index))
      }
    }

    /// Adds an entry holding `value` for `object` (none if `value` is `nil`), behind the cursor:
    /// it is live, so it needs no check in this round. `value` goes to `garbage` instead if
    /// `object` is running its deinit (a weak reference to it is already `nil`).
    mutating func store(_ value: AnyObject?, at slot: Slot, of object: AnyObject, into garbage: inout Held) {
      guard let value else { return }
      let entry = Entry(slot: slot, object: object, value: value)
      guard entry.object != nil else {
        garbage.append(value)
        return
      }
      indices[slot] = entries.count
      entries.append(entry)
      swapEntries(cursor, entries.count - 1)
      cursor += 1
    }

    /// Checks the next `count` entries and removes those whose object is dead, adding their
    /// values to `garbage` and the live objects it loaded to `swept`.
    mutating func sweep(_ count: Int, into garbage: inout Held, keeping swept: inout Held) {
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
