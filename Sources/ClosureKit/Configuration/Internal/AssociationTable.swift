/// The Linux side table behind ``AssociatedKey``: one entry per object that has values, keyed by
/// the object's identity, holding a weak reference to the object and its values by key.
///
/// - A lookup returns a value only if the entry's weak reference still points to the very object
///   asked about, so a dead object's values are never handed to a new object at a reused address;
///   such a stale entry is removed (and its values released) by the access that finds it.
/// - Every access (each method below but the test helpers: one per public call of ``AssociatedKey``,
///   ``WeakAssociatedKey`` or ``AssociatedValues``) also checks the next entry of a round-robin sweep
///   and removes it if its object is dead. An entry whose object died is removed within `n`
///   accesses, `n` being the number of entries when it died, which is at most the number of values
///   (the proof is at ``State``). The bound is exact: an object that dies just after the sweep
///   checked it takes all `n`.
/// - Removed values are released after the lock is released, so a value's `deinit` may use the
///   table. So is the object the sweep loads from its weak reference: if another thread drops that
///   object's last reference while the sweep holds it, the object's `deinit` may use the table.
///
/// Every access is O(1) but for the object's own keys (a linear search among them): one hash
/// lookup, two weak loads, O(1) removals. Amortised O(1) where the array or the dictionary grows.
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
        index = state.entries[index].next
      }
      return objects
    }
  }

  /// The value for `key` on `object`, if `object` is the live object it was set for.
  package func value(for object: AnyObject, key: UInt) -> AnyObject? {
    var released = Released()
    let result: AnyObject? = state.withLock { state in
      state.sweep(into: &released)
      guard let index = state.liveIndex(of: object, into: &released) else { return nil }
      return state.entries[index].associations.first { $0.key == key }?.value
    }
    withExtendedLifetime(released) {}
    return result
  }

  /// Sets (or with `nil` removes) the value for `key` on `object`.
  package func setValue(_ value: AnyObject?, for object: AnyObject, key: UInt) {
    update(for: object, key: key) { _ in value }
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
      guard let index = state.indices[ObjectIdentifier(object)] else { return }
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

  /// One object's values. A class, so that reading its weak reference does not copy it (a weak
  /// copy costs two atomic operations on the object's side table).
  final class Entry {
    /// Where ``State/indices`` finds this entry; may be reused by a new object once the object is
    /// freed.
    let identity: ObjectIdentifier
    /// The object the values belong to; `nil` once it has started to deinitialise.
    weak var object: AnyObject?
    /// The values, never empty while the entry is in the table.
    var associations: [Association]
    /// The index of the entry the sweep checks after this one (itself if it is alone).
    var next: Int
    /// The index of the entry the sweep checks before this one (itself if it is alone).
    var previous: Int

    init(object: AnyObject, association: Association, index: Int) {
      identity = ObjectIdentifier(object)
      self.object = object
      associations = [association]
      next = index
      previous = index
    }
  }

  /// What an access takes out of the table under the lock, released after it: at most one entry
  /// removed by the sweep, one stale entry, one entry or value removed or replaced by the access,
  /// and the live object the sweep loaded (its last reference may go while the sweep holds it).
  struct Released {
    var swept: Entry?
    var stale: Entry?
    var entry: Entry?
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
    /// Where each object's entry is in `entries`.
    var indices: [ObjectIdentifier: Int] = [:]
    /// The index of the entry the sweep checks next (0 when there is none).
    var cursor = 0
    /// The number of values in all entries.
    var valueCount = 0

    /// The index of the entry for `object` if it belongs to `object`. A stale entry there (a dead
    /// object's, at a reused address, or `object`'s own while it deinitialises) is removed, into
    /// `released`.
    mutating func liveIndex(of object: AnyObject, into released: inout Released) -> Int? {
      guard let index = indices[ObjectIdentifier(object)] else { return nil }
      if entries[index].object === object { return index }
      released.stale = remove(at: index)
      return nil
    }

    /// Replaces the value for `key` on `object` with what `transform` returns, removing the value
    /// (and the entry, once it has none) for `nil`.
    mutating func update(
      for object: AnyObject,
      key: UInt,
      into released: inout Released,
      _ transform: (AnyObject?) -> AnyObject?
    ) {
      guard let index = liveIndex(of: object, into: &released) else {
        if let value = transform(nil) { store(value, key: key, for: object, into: &released) }
        return
      }
      let entry = entries[index]
      guard let position = entry.associations.firstIndex(where: { $0.key == key }) else {
        if let value = transform(nil) {
          entry.associations.append(Association(key: key, value: value))
          valueCount += 1
        }
        return
      }
      if let value = transform(entry.associations[position].value) {
        released.value = entry.associations[position].value
        entry.associations[position].value = value
      } else if entry.associations.count > 1 {
        released.value = entry.associations.remove(at: position).value
        valueCount -= 1
      } else {
        released.entry = remove(at: index)
      }
    }

    /// Adds an entry holding `value` for `object`, last in the sweep's order (it is live: it needs
    /// no check before the others). `value` is released instead if `object` is running its deinit
    /// (a weak reference to it is already `nil`).
    mutating func store(_ value: AnyObject, key: UInt, for object: AnyObject, into released: inout Released) {
      let index = entries.count
      let entry = Entry(object: object, association: Association(key: key, value: value), index: index)
      guard entry.object != nil else {
        released.value = value
        return
      }
      entries.append(entry)
      indices[entry.identity] = index
      valueCount += 1
      if index == 0 {
        cursor = 0
      } else {
        // Just before the cursor.
        let previous = entries[cursor].previous
        entry.previous = previous
        entry.next = cursor
        entries[previous].next = index
        entries[cursor].previous = index
      }
      assert(verifyInvariants())
    }

    /// Checks the entry at the cursor and removes it if its object is dead; keeps the live object
    /// it loaded in `released`, to be released after the lock.
    mutating func sweep(into released: inout Released) {
      guard !entries.isEmpty else { return }
      if let object = entries[cursor].object {
        released.sweptObject = object
        cursor = entries[cursor].next
      } else {
        released.swept = remove(at: cursor)
      }
    }

    /// Removes the entry at `index` in O(1) and returns it (for release outside the lock).
    mutating func remove(at index: Int) -> Entry {
      let removed = entries[index]
      if removed.next != index {
        entries[removed.previous].next = removed.next
        entries[removed.next].previous = removed.previous
        if cursor == index { cursor = removed.next }
      }
      let last = entries.count - 1
      if index != last {
        // The last entry takes the hole; its neighbours (itself if alone) and the cursor follow.
        let moved = entries[last]
        entries[index] = moved
        if moved.next == last {
          moved.next = index
          moved.previous = index
        } else {
          entries[moved.previous].next = index
          entries[moved.next].previous = index
        }
        indices[moved.identity] = index
        if cursor == last { cursor = index }
      }
      entries.removeLast()
      indices[removed.identity] = nil
      valueCount -= removed.associations.count
      if entries.isEmpty { cursor = 0 }
      assert(verifyInvariants())
      return removed
    }

    /// The ring and the indices agree with the array (O(1) checks, for `assert`).
    func verifyInvariants() -> Bool {
      guard !entries.isEmpty else { return cursor == 0 && indices.isEmpty && valueCount == 0 }
      guard entries.indices.contains(cursor), indices.count == entries.count else { return false }
      let entry = entries[cursor]
      return entries[entry.next].previous == cursor && entries[entry.previous].next == cursor
        && indices[entry.identity] == cursor && !entry.associations.isEmpty
    }
  }
}
