import ClosureKit
import Foundation

/// The registrations of `NotificationCenter.observing(_:object:)`: those of one center, name and
/// sender share one block observer of the center, in front of one `FanOutList` (the registry every
/// multicast source uses). The observer is added with the list's first handler and removed with
/// its last.
///
/// Senders are matched as Foundation matches them, by identity: registrations share a list only
/// when their `object` is `nil` or the same class instance (`ObjectIdentifier`). A sender that is
/// not a class instance (a `String`, say) is handed to Foundation as it is, on a list of its own.
///
/// The table holds its lists and centers weakly (a center holds its observer's block, which holds
/// the list; the tokens hold it too), so it keeps nothing alive. A slot is used only while its
/// list is open and its center is the caller's (a new center may reuse a dead one's address).
///
/// Lock order: the table's lock, then a list's; no list lock is held while the table's is taken.
/// Nothing is released under the table's lock that may run arbitrary code: slots are compared by
/// `ObjectIdentifier`, and weak references are read outside it.
enum NotificationRelays {
  /// What registrations share an observer by.
  struct Key: Hashable, Sendable {
    /// The center.
    let center: ObjectIdentifier
    /// The notification name; `nil` for every name.
    let name: Notification.Name?
    /// The sender's identity; `nil` for any sender.
    let sender: ObjectIdentifier?

    /// The key of a registration, or `nil` if `object` is not a class instance (it cannot share).
    init?(center: NotificationCenter, name: Notification.Name?, object: Any?) {
      self.center = ObjectIdentifier(center)
      self.name = name
      guard let object else {
        sender = nil
        return
      }
      guard type(of: object) is AnyObject.Type else { return nil }
      sender = ObjectIdentifier(object as AnyObject)
    }
  }

  /// One shared list, held weakly; immutable but for the weak references going `nil`.
  ///
  /// `@unchecked Sendable`: its fields are constants (the weak references are thread-safe).
  final class Slot: @unchecked Sendable {
    /// The list's identity: compared under the lock without reading `list`.
    let id: ObjectIdentifier
    /// The list; `nil` once deallocated.
    weak let list: FanOutList<NotificationTransfer>?
    /// The center its observer was added to; `nil` once deallocated.
    weak let center: NotificationCenter?

    init(list: FanOutList<NotificationTransfer>, center: NotificationCenter) {
      id = ObjectIdentifier(list)
      self.list = list
      self.center = center
    }
  }

  /// The slots, and the size at which the next registration drops the dead ones.
  struct Table {
    var slots: [Key: Slot] = [:]
    var purgeAt = 64
  }

  /// Every center's shared lists.
  static let table = Locked(Table())

  /// Registers `handler` for the notifications of `name` from `object` posted to `center`: on the
  /// shared list of that key if one is open, else on a new list with its own observer.
  static func register<Owner: AnyObject & Sendable>(
    center: NotificationCenter,
    name: Notification.Name?,
    object: Any?,
    once: Bool,
    on delivery: Delivery,
    site: RegistrationSite,
    _ handler: SourceHandler<Owner, NotificationTransfer>
  ) -> Subscription {
    let key = Key(center: center, name: name, object: object)
    if let key {
      while let list = sharedList(for: key, center: center) {
        if let token = list.add(once: once, on: delivery, site: site, handler) { return token }
        retire(list, for: key)  // closed by the removal of its last handler: not to be shared
      }
    }
    let list = FanOutList<NotificationTransfer>()
    guard let token = list.add(once: once, on: delivery, site: site, handler) else {
      failPrecondition("NotificationRelays: a new list refused its first handler")
    }
    attach(list, center: center, name: name, object: object, key: key)
    return token
  }

  /// Adds the observer of a new `list` to `center`, then shares the list under `key`, unless its
  /// handlers are already gone (then the observer is removed again).
  private static func attach(
    _ list: FanOutList<NotificationTransfer>,
    center: NotificationCenter,
    name: Notification.Name?,
    object: Any?,
    key: Key?
  ) {
    // The center holds the block, the block holds the link, the link holds the list: the
    // handlers live as long as the center, as those of `addObserver(forName:object:queue:using:)`
    // do, until removed; when the center goes, the link closes the list.
    let link = UpstreamLink(list)
    let observer = ObserverToken(
      value: center.addObserver(forName: name, object: object, queue: nil) { [link] notification in
        link.list.forward(NotificationTransfer(notification: notification))
      })
    let detach: @Sendable () -> Void = { [weak center, weak list] in
      center?.removeObserver(observer.value)
      if let key, let list { retire(list, for: key) }
    }
    guard list.attach(detach) else { return detach() }
    if let key { share(list, center: center, for: key) }
  }

  /// The open list shared under `key` for `center`, if any; read outside the lock.
  private static func sharedList(for key: Key, center: NotificationCenter) -> FanOutList<NotificationTransfer>? {
    guard let slot = table.withLock({ $0.slots[key] }), slot.center === center, let list = slot.list else {
      return nil
    }
    return list
  }

  /// Puts `list` in the slot of `key`, unless an open list of the same center holds it.
  private static func share(_ list: FanOutList<NotificationTransfer>, center: NotificationCenter, for key: Key) {
    let current = table.withLock { $0.slots[key] }
    if let current, current.center === center, let held = current.list, !held.isClosed { return }
    let purge = table.withLock { table -> [Key: Slot]? in
      // Still the slot read above (or still none): another registration may have shared first.
      guard table.slots[key]?.id == current?.id else { return nil }
      table.slots[key] = Slot(list: list, center: center)
      guard table.slots.count >= table.purgeAt else { return nil }
      return table.slots
    }
    if let purge { dropDeadSlots(of: purge) }
  }

  /// Takes `list` out of its slot (if it is still there): it has closed.
  private static func retire(_ list: FanOutList<NotificationTransfer>, for key: Key) {
    let id = ObjectIdentifier(list)
    table.withLock { table in
      if table.slots[key]?.id == id { table.slots[key] = nil }
    }
  }

  /// Drops the slots of `slots` whose list or center is gone (checked outside the lock), then sets
  /// the size of the next purge to twice what is left.
  private static func dropDeadSlots(of slots: [Key: Slot]) {
    let dead = slots.filter { $0.value.list == nil || $0.value.center == nil }.mapValues(\.id)
    table.withLock { table in
      for (key, id) in dead where table.slots[key]?.id == id { table.slots[key] = nil }
      table.purgeAt = max(64, table.slots.count * 2)
    }
  }

  /// The number of shared lists of `center` that are open; for tests.
  static func sharedListCount(of center: NotificationCenter) -> Int {
    let slots = table.withLock { $0.slots }
    return slots.values.filter { $0.center === center && $0.list.map { !$0.isClosed } == true }.count
  }
}

/// What a shared observer's block holds: the list, which it closes when the block is released
/// (the center was deallocated, or the observer removed after the list closed).
final class UpstreamLink: Sendable {
  /// The list the block forwards to.
  let list: FanOutList<NotificationTransfer>

  init(_ list: FanOutList<NotificationTransfer>) {
    self.list = list
  }

  deinit {
    list.upstreamEnded()
  }
}

/// Foundation's token for a block observer.
///
/// `@unchecked Sendable`: it is only handed back to `NotificationCenter.removeObserver(_:)`, which
/// Foundation allows from any thread.
struct ObserverToken: @unchecked Sendable {
  let value: any NSObjectProtocol
}

/// A notification handed to a handler on another thread or in an async sequence.
///
/// `@unchecked Sendable`: `Notification` is an immutable value; the poster hands its object and
/// user info over to the observers, as Foundation's own queue-based observers do.
struct NotificationTransfer: @unchecked Sendable {
  let notification: Notification
}
