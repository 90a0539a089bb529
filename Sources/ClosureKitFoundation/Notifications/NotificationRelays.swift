import ClosureKit
import Foundation
import Synchronization

/// The registrations of `NotificationCenter.observing(_:object:)`: those of one center, name and
/// sender share one block observer of the center, in front of one `FanOutList` (the registry every
/// multicast source uses). The observer is added with the list's first handler and removed with
/// its last.
///
/// Senders are matched as Foundation matches them, by identity: registrations share a list only
/// when their `object` is `nil` or the same class instance (`ObjectIdentifier`). A sender that is
/// not a class instance (a `String`, say) is handed to Foundation as it is, on a list of its own.
///
/// The table holds an attached list until its observer's block is released, when its last handler
/// is removed (the detach removes the observer) or its center is deallocated: the block's
/// ``UpstreamLink`` retires it then. Never longer than the center's observer would hold it. A slot is
/// used only while its list is open and its center is the caller's.
///
/// Lock order: the table's lock, then a list's; no list lock is held while the table's is taken,
/// and Foundation is never called under either. Nothing whose release may run arbitrary code is
/// released under the table's lock: a removed slot is returned and released after it, and weak
/// references are read outside it.
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

  /// One shared list and its center.
  ///
  /// A class, not a struct: Swift 6.3.1 at `-Onone` crashed (`swift_weakCopyInit` on a null
  /// pointer) comparing a field of an optional struct holding a weak reference, read from a
  /// dictionary. `@unchecked Sendable`: its fields are constants (a weak reference is thread-safe).
  final class Slot: @unchecked Sendable {
    /// The list, held until it is retired.
    let list: FanOutList
    /// The center its observer was added to; `nil` once deallocated.
    weak let center: NotificationCenter?

    init(list: FanOutList, center: NotificationCenter) {
      self.list = list
      self.center = center
    }
  }

  /// Every center's shared lists.
  static let table = Locked<[Key: Slot]>([:])

  /// Registers `handler` for the notifications of `name` from `object` posted to `center`: on the
  /// shared list of that key if one is open, else on a new list with its own observer.
  static func register<Owner: AnyObject & Sendable>(
    center: NotificationCenter,
    name: Notification.Name?,
    object: Any?,
    once: Bool,
    on delivery: Delivery,
    site: RegistrationSite,
    _ handler: SourceHandler<Owner, FanOutPayload>
  ) -> HandlerSubscription {
    let key = Key(center: center, name: name, object: object)
    if let key {
      while let list = sharedList(for: key, center: center) {
        if let token = list.add(once: once, on: delivery, site: site, handler) { return token }
        retire(ObjectIdentifier(list), for: key)  // closed by the removal of its last handler
      }
    }
    let list = FanOutList()
    guard let token = list.add(once: once, on: delivery, site: site, handler) else {
      failPrecondition("NotificationRelays: a new list refused its first handler")
    }
    attach(list, center: center, name: name, object: object, key: key)
    return token
  }

  /// Adds the observer of a new `list` to `center`, then shares the list under `key`, unless its
  /// handlers are already gone (then the observer is removed again).
  private static func attach(
    _ list: FanOutList,
    center: NotificationCenter,
    name: Notification.Name?,
    object: Any?,
    key: Key?
  ) {
    // The center holds the block, the block holds the link, the link holds the list: the
    // handlers live as long as the center, as those of `addObserver(forName:object:queue:using:)`
    // do, until removed; when the center goes, the link closes and retires the list.
    let link = UpstreamLink(list, key: key)
    link.publish()
    let observer = ObserverToken(
      value: center.addObserver(forName: name, object: object, queue: nil) { [link] notification in
        link.published.forward(NotificationTransfer(notification: notification))
      })
    // Kept in the list's state until called or dropped (both end the list's upstream). The
    // removal releases the block, whose link retires the list.
    let detach: @Sendable () -> Void = { [weak center] in
      center?.removeObserver(observer.value)
    }
    guard list.attach(detach) else { return detach() }
    if let key { share(list, center: center, for: key) }
  }

  /// The list shared under `key` for `center`, if any (it may have closed since: the caller
  /// retires it then).
  private static func sharedList(for key: Key, center: NotificationCenter) -> FanOutList? {
    table.withLock { table in
      guard let slot = table[key], slot.center === center else { return nil }  // see `share`
      return slot.list
    }
  }

  /// Puts `list` in the slot of `key`, unless an open list of the same center holds it, or `list`
  /// has closed already.
  ///
  /// The slot's center is read under the lock: it can only be `center` (the key holds its
  /// identity, and the caller holds it, so no other object has that address) or `nil`, so the
  /// read never makes the last strong reference of anything.
  private static func share(_ list: FanOutList, center: NotificationCenter, for key: Key) {
    let replaced = table.withLock { table -> Slot? in
      if let current = table[key], current.center === center, !current.list.isClosed { return nil }
      guard !list.isClosed else { return nil }
      return table.updateValue(Slot(list: list, center: center), forKey: key)
    }
    withExtendedLifetime(replaced) {}  // released after the lock
  }

  /// Takes the list `id` out of the slot of `key`, if it is there: it has closed, or its center
  /// is gone.
  static func retire(_ id: ObjectIdentifier, for key: Key) {
    let removed = table.withLock { table -> Slot? in
      guard let slot = table[key], ObjectIdentifier(slot.list) == id else { return nil }
      return table.removeValue(forKey: key)
    }
    withExtendedLifetime(removed) {}  // released after the lock
  }

  /// The number of shared lists of `center` that are open; for tests.
  static func sharedListCount(of center: NotificationCenter) -> Int {
    let slots = table.withLock { $0 }
    return slots.values.filter { $0.center === center && !$0.list.isClosed }.count
  }

  /// The number of slots of the center `id` (which may be gone), open or not; for tests: a
  /// retired list leaves none behind.
  static func slotCount(ofCenter id: ObjectIdentifier) -> Int {
    table.withLock { $0.keys.filter { $0.center == id }.count }
  }
}

/// What a shared observer's block holds: the list, which it closes and retires when the block is
/// released (the center was deallocated, or the observer removed after the list closed).
///
/// The block runs on posting threads, handed over by Foundation's lock, which ThreadSanitizer does
/// not see on Linux (it reported the block's first read of `list` as a race with the link's init):
/// ``publish()`` and ``published`` make the hand-over visible to it, a release store before the
/// observer is added and an acquire load at each post.
final class UpstreamLink: Sendable {
  /// The list the block forwards to.
  private let list: FanOutList
  /// The list's key, if it is shared.
  private let key: NotificationRelays.Key?
  /// Set by ``publish()``, before the block that holds the link is handed to Foundation.
  private let isPublished = Atomic<Bool>(false)

  init(_ list: FanOutList, key: NotificationRelays.Key?) {
    self.list = list
    self.key = key
  }

  /// Releases the link's fields to the threads that will run the block.
  func publish() {
    isPublished.store(true, ordering: .releasing)
  }

  /// The list, read after an acquire of ``publish()``'s store.
  var published: FanOutList {
    guard isPublished.load(ordering: .acquiring) else {
      failPrecondition("UpstreamLink: the block ran before its link was published")
    }
    return list
  }

  deinit {
    let list = published  // the last release may come from any thread
    list.upstreamEnded()
    if let key { NotificationRelays.retire(ObjectIdentifier(list), for: key) }
  }
}

/// Foundation's token for a block observer.
///
/// `@unchecked Sendable`: it is only handed back to `NotificationCenter.removeObserver(_:)`, which
/// Foundation allows from any thread.
struct ObserverToken: @unchecked Sendable {
  let value: any NSObjectProtocol
}

/// A notification handed to the handlers (through a `FanOutList`, whose payload is an object),
/// possibly on another thread, or to an async sequence.
///
/// `@unchecked Sendable`: `Notification` is an immutable value; the poster hands its object and
/// user info over to the observers, as Foundation's own queue-based observers do.
final class NotificationTransfer: @unchecked Sendable {
  let notification: Notification

  init(notification: Notification) {
    self.notification = notification
  }

  /// A `FanOutList`'s payload as what it always is, a `NotificationTransfer` (the only payload
  /// `NotificationRelays` forwards). Checked: the payload's dynamic type must be this final class,
  /// else it traps. (The runtime's `as?` from an existential took a tenth of a post per handler.)
  @inline(__always)
  static func of(_ payload: FanOutPayload) -> NotificationTransfer {
    guard type(of: payload) == NotificationTransfer.self else {
      failPrecondition("NotificationRelays: a payload that is not a notification")
    }
    return unsafeDowncast(payload, to: NotificationTransfer.self)
  }
}
