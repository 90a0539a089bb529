#if !canImport(Darwin)
  public import Foundation
  import ClosureKit

  extension NotificationCenter {
    /// An asynchronous sequence of the notifications of one name, from
    /// `NotificationCenter/notifications(named:object:)`.
    ///
    /// ```swift
    /// let saves = NotificationCenter.default.notifications(named: .documentSaved)
    /// for await note in saves { print(note.name) }
    /// ```
    ///
    /// > Important: One iteration per sequence. The observer is removed when the iteration ends or
    /// > the sequence and its iterator are deallocated.
    public struct Notifications: AsyncSequence, Sendable {
      /// Each element is one posted notification.
      public typealias Element = Notification

      /// The buffered notifications.
      private let stream: AsyncStream<NotificationTransfer>

      init(center: NotificationCenter, name: Notification.Name, object: (any AnyObject & Sendable)?) {
        let (stream, continuation) = AsyncStream<NotificationTransfer>.makeStream()
        let subscription = center.observing(name, object: object).addHandler { notification in
          continuation.yield(NotificationTransfer(notification: notification))
        }
        continuation.onTermination = { _ in subscription.cancel() }
        self.stream = stream
      }

      /// Creates the iterator.
      ///
      /// ```swift
      /// var iterator = saves.makeAsyncIterator()
      /// let first = await iterator.next()
      /// ```
      ///
      /// - Returns: The iterator; use one per sequence.
      public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
      }

      /// Iterates the notifications.
      ///
      /// ```swift
      /// var iterator = saves.makeAsyncIterator()
      /// while let note = await iterator.next() { print(note.name) }
      /// ```
      public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<NotificationTransfer>.Iterator

        /// The next notification, waiting for one to be posted.
        ///
        /// ```swift
        /// let note = await iterator.next()
        /// ```
        ///
        /// - Returns: The next notification, or `nil` when the task is cancelled.
        public mutating func next() async -> Notification? {
          await base.next()?.notification
        }
      }
    }
  }
#endif
