/// The Linux side table behind ``AssociatedKey``: one entry per object that has values, keyed by
/// the object's identity, holding the object's values by key, a weak reference to the object and an
/// `unowned` one.
///
/// - The `unowned` reference keeps the object's memory (not the object: its deinit runs as usual)
///   allocated until the entry is removed, so no new object can get that address meanwhile and a
///   dead object's values are never handed to a new object. A lookup needs no weak load.
/// - Every access (each method below but the counts and the test helper; one per public call of
///   ``AssociatedKey``, ``WeakAssociatedKey`` or ``AssociatedValues``) also checks the next entry
///   of a round-robin sweep and removes it if its object is dead (its weak reference reads `nil`).
///   An entry whose object died is removed within `n` accesses, `n` being the number of entries
///   when it died, which is at most the number of values (the proof is at ``State``). The bound is
///   exact: an object that dies just after the sweep checked it takes all `n`.
/// - Removed values are released after the lock is released, so a value's `deinit` may use the
///   table. So is the object the sweep loads from its weak reference: if another thread drops that
///   object's last reference while the sweep holds it, the object's `deinit` may use the table.
///
/// Every access is O(1) but for the object's own keys (a linear search among them): one hash
/// lookup, one weak load, O(1) removals. Amortised O(1) where the array or the dictionary grows.
package final class AssociationTable: Sendable {
  /// The table every ``AssociatedKey`` uses on Linux.
  package static let shared = AssociationTable()

  /// The entries, guarded by a mutex.
  private let state = Locked(State())

  package init() {}

  /// The number of values, of live or dead objects, not yet removed.
  package var count: Int {
    state.withLock { $0.valueCount }
  }

  /// The number of objects with values, live or dead, not yet removed: the `n` of the bound.
  package var objectCount: Int {
    state.withLock { $0.entries.count }
  }

  /// Whether each entry's object is alive, in the order the sweep will check them, from the next
  /// one to the one it checked last (for tests; O(n)).
  package func objectsInSweepOrder() -> [AnyObject?] {
    state.withLock { state in
      var objects: [AnyObject?] = []
      var index = state.cursor
      for _ in state.entries.indices {
        objects.append(state.entries[index].object)
        index = state.links[index].next
      }
      return objects
    }
  }

  /// The value for `key` on `object`, if there is one.
  package func value(for object: AnyObject, key: UInt) -> AnyObject? {
    var released = Released()
    let result: AnyObject? = state.withLock { state in
      defer { state.sweep(into: &released) }
      guard let index = state.index(of: object) else { return nil }
      return state.associations[index].first { $0.key == key }?.value
    }
    withExtendedLifetime(released) {}
    return result
  }

  /// Sets (or with `nil` removes) the value for `key` on `object`.
  package func setValue(_ value: AnyObject?, for object: AnyObject, key: UInt) {
    var released = Released()
    state.withLock { state in
      state.sweep(into: &released)
      state.update(for: object, key: key, into: &released) { _ in value }
    }
    withExtendedLifetime(released) {}
  }

  /// Replaces the value for `key` on `object` with what `transform` returns for the current one
  /// (`nil`: none). `transform` runs under the lock and must not use the table.
  package func update(for object: AnyObject, key: UInt, _ transform: (AnyObject?) -> AnyObject?) {
    var released = Released()
    state.withLock { state in
      state.sweep(into: &released)
      state.update(for: object, key: key, into: &released, transform)
    }
    withExtendedLifetime(released) {}
  }

  /// Removes every value on `object`.
  package func removeAll(from object: AnyObject) {
    var released = Released()
    state.withLock { state in
      state.sweep(into: &released)
      guard let index = state.index(of: object) else { return }
      released.entry = state.remove(at: index)
    }
    withExtendedLifetime(released) {}
  }
}

extension AssociationTable {
  /// One value and its key (``AssociatedKey/address``).
  struct Association {
    /// The key's address.
    let key: UInt
    /// The ``AssociatedBox`` or ``WeakBox`` holding the value.
    var value: AnyObject
  }

  /// One object: its references. A class, so that reading them copies nothing (a copy of a weak
  /// reference costs two atomic operations on the object's side table); its values are in
  /// ``State/associations``, a plain array, which needs no run-time exclusivity check.
  final class Entry {
    /// Where ``State/indices`` finds this entry.
    let identity: ObjectIdentifier
    /// Keeps the object's memory allocated, not the object alive (an `unowned` reference counts
    /// apart from the strong ones): while the entry exists no other object can have its address,
    /// so the entry found under a live object's identity is that object's.
    unowned let anchor: AnyObject
    /// The object the values belong to; `nil` once it has started to deinitialise.
    weak let object: AnyObject?

    init(object: AnyObject) {
      identity = ObjectIdentifier(object)
      anchor = object
      self.object = object
    }
  }

  /// Where an entry is in the sweep's ring: the indices of its neighbours (its own if it is alone).
  struct Link {
    /// The entry the sweep checks after this one.
    var next: Int
    /// The entry the sweep checks before this one.
    var previous: Int
  }

  /// An entry taken out of the table, with its values.
  struct Removed {
    let entry: Entry
    let associations: [Association]
  }

  /// What an access takes out of the table under the lock, released after it: at most one entry
  /// removed by the sweep, one entry or value removed or replaced by the access, and the live
  /// object the sweep loaded (its last reference may go while the sweep holds it).
  struct Released {
    var swept: Removed?
    var entry: Removed?
    var value: AnyObject?
    var sweptObject: AnyObject?
  }

  /// The table's contents: the entries in a dense array, linked in a ring in the order the sweep
  /// checks them.
  ///
  /// The sweep checks the entry at `cursor` and moves the cursor to the next one in the ring, or
  /// removes it if its object is dead (the cursor moves to the next one too). A new entry is linked
  /// just before the cursor: last in the ring order from the cursor. A removal unlinks its entry
  /// and moves the array's last entry into the hole, relinking its neighbours to its new index;
  /// the ring order of every other entry stays as it was.
  ///
  /// Why an entry whose object died is removed within `n` accesses, `n` being the number of
  /// entries then: let `d` be its place in the ring order from the cursor (1 when the cursor is at
  /// it), so `d ≤ n`. Every access checks one entry, the one at the cursor: if it is ours, ours is
  /// removed (dead); if not, it leaves the ring ahead of ours (checked: moved behind it; dead:
  /// removed), so `d` drops by one. New entries join behind ours; removals elsewhere never raise
  /// `d`. So the `d`-th access removes it, and `d = n` when it dies just after being checked.
  struct State {
    /// Every object's entry, densely packed.
    var entries: [Entry] = []
    /// The ring: `links[i]` is where `entries[i]` is.
    var links: [Link] = []
    /// The values: `associations[i]` are `entries[i]`'s, never empty.
    var associations: [[Association]] = []
    /// Where each object's entry is in `entries`.
    var indices: [ObjectIdentifier: Int] = [:]
    /// The index of the entry the sweep checks next (0 when there is none).
    var cursor = 0
    /// The number of values in all entries.
    var valueCount = 0

    /// The index of `object`'s entry. No lookup loads the weak reference: the entry's `anchor`
    /// keeps a dead object's address from being reused until the entry is removed, so an entry
    /// found under a live object's identity is its own (also while it deinitialises).
    func index(of object: AnyObject) -> Int? {
      indices[ObjectIdentifier(object)]
    }

    /// Replaces the value for `key` on `object` with what `transform` returns, removing the value
    /// (and the entry, once it has none) for `nil`. Inlined, so that a set passes no closure.
    @inline(__always)
    mutating func update(
      for object: AnyObject,
      key: UInt,
      into released: inout Released,
      _ transform: (AnyObject?) -> AnyObject?
    ) {
      guard let index = index(of: object) else {
        if let value = transform(nil) { store(value, key: key, for: object, into: &released) }
        return
      }
      guard let position = associations[index].firstIndex(where: { $0.key == key }) else {
        if let value = transform(nil) {
          associations[index].append(Association(key: key, value: value))
          valueCount += 1
        }
        return
      }
      let old = associations[index][position].value
      if let value = transform(old) {
        released.value = old
        associations[index][position].value = value
      } else if associations[index].count > 1 {
        released.value = associations[index].remove(at: position).value
        valueCount -= 1
      } else {
        released.entry = remove(at: index)
      }
    }

    /// Adds an entry holding `value` for `object`, last in the sweep's order (it is live: it needs
    /// no check before the others). `value` is released instead if `object` is running its deinit
    /// (a weak reference to it is already `nil`).
    mutating func store(_ value: AnyObject, key: UInt, for object: AnyObject, into released: inout Released) {
      let entry = Entry(object: object)
      guard entry.object != nil else {
        released.value = value
        return
      }
      let index = entries.count
      entries.append(entry)
      associations.append([Association(key: key, value: value)])
      indices[entry.identity] = index
      valueCount += 1
      if index == 0 {
        cursor = 0
        links.append(Link(next: 0, previous: 0))
      } else {
        // Just before the cursor.
        let previous = links[cursor].previous
        links.append(Link(next: cursor, previous: previous))
        links[previous].next = index
        links[cursor].previous = index
      }
      assert(verifyInvariants())
    }

    /// Checks the entry at the cursor and removes it if its object is dead; keeps the live object
    /// it loaded in `released`, to be released after the lock.
    mutating func sweep(into released: inout Released) {
      guard !entries.isEmpty else { return }
      if let object = entries[cursor].object {
        released.sweptObject = object
        cursor = links[cursor].next
      } else {
        released.swept = remove(at: cursor)
      }
    }

    /// Removes the entry at `index` in O(1) and returns it (for release outside the lock).
    mutating func remove(at index: Int) -> Removed {
      let link = links[index]
      if link.next != index {
        links[link.previous].next = link.next
        links[link.next].previous = link.previous
        if cursor == index { cursor = link.next }
      }
      let last = entries.count - 1
      if index != last {
        entries.swapAt(index, last)
        links.swapAt(index, last)
        associations.swapAt(index, last)
      }
      let removed = Removed(entry: entries.removeLast(), associations: associations.removeLast())
      links.removeLast()
      indices[removed.entry.identity] = nil
      valueCount -= removed.associations.count
      if index != last {
        // The last entry took the hole; its neighbours (itself if alone) and the cursor follow.
        let moved = links[index]
        if moved.next == last {
          links[index] = Link(next: index, previous: index)
        } else {
          links[moved.previous].next = index
          links[moved.next].previous = index
        }
        indices[entries[index].identity] = index
        if cursor == last { cursor = index }
      }
      if entries.isEmpty { cursor = 0 }
      assert(verifyInvariants())
      return removed
    }

    /// The ring and the indices agree with the array around the cursor (O(1), for `assert`).
    func verifyInvariants() -> Bool {
      guard !entries.isEmpty else {
        return cursor == 0 && indices.isEmpty && links.isEmpty && associations.isEmpty && valueCount == 0
      }
      guard entries.indices.contains(cursor), indices.count == entries.count, links.count == entries.count else {
        return false
      }
      let link = links[cursor]
      return links[link.next].previous == cursor && links[link.previous].next == cursor
        && indices[entries[cursor].identity] == cursor && !associations[cursor].isEmpty
        && associations.count == entries.count
    }
  }
}
