import ClosureKit
public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// A URLSession whose delegate callbacks are closures, given per task.
///
/// The wrapper owns one `URLSession` and its one delegate. Each task is created with a
/// ``URLTaskHandlers`` value; the delegate finds the task's closures by task identifier. The same
/// code works on Linux, where `task.delegate` is ignored and completion-handler tasks get no
/// delegate callbacks, and on Apple platforms.
///
/// ```swift
/// let session = ClosureURLSession()
/// let task = session.dataTask(
///   with: URLRequest(url: url),
///   handlers: URLTaskHandlers(
///     downloadProgress: { print($0.fractionCompleted ?? 0) },
///     completion: { result in print(result) }
///   )
/// )
/// task.resume()
/// ```
///
/// > Important: Thread-safe. Every closure of a session runs on its serial delegate queue.
/// > When the wrapper is deallocated it calls `finishTasksAndInvalidate()`: running tasks finish
/// > and complete, then URLSession releases the delegate and every closure.
public final class ClosureURLSession: Sendable {
  /// The wrapped session; its delegate is `delegate`.
  package let session: URLSession
  /// The single delegate; held by `session` until it is invalidated.
  let delegate: SessionDelegate

  /// Creates a session with its own serial delegate queue.
  ///
  /// ```swift
  /// let configuration = URLSessionConfiguration.ephemeral
  /// configuration.timeoutIntervalForRequest = 10
  /// let session = ClosureURLSession(configuration: configuration)
  /// ```
  ///
  /// - Parameter configuration: The session configuration; copied by URLSession. On Linux the
  ///   session uses it without its `urlCache`: with a cache, FoundationNetworking can carry out a
  ///   `cancel()` after the task has completed and stop the process (see the Networking article).
  public init(configuration: URLSessionConfiguration = .default) {
    let delegate = SessionDelegate()
    self.delegate = delegate
    #if canImport(FoundationNetworking)
      // FoundationNetworking looks a task's cached response up on a background queue before the
      // task's protocol exists; a `cancel()` landing then is carried out after that lookup, which
      // can be after the task has completed, and stops the process (TaskRegistry.swift:118). Without
      // a cache no lookup happens. Apple's URLSession has no such race and keeps the cache.
      let configuration = (configuration.copy() as? URLSessionConfiguration) ?? URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
    #endif
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The delegate object, for tests that prove it is released.
  package var delegateObject: AnyObject { delegate }

  /// Runs `body` once URLSession has invalidated the session (after `didBecomeInvalidWithError`).
  package func whenInvalidated(_ body: @escaping @Sendable () -> Void) {
    delegate.invalidationHandlers.withLock { $0.append(body) }
  }

  /// The number of tasks whose completion has not run yet.
  package var pendingTaskCount: Int { delegate.pendingCount }

  /// A closure that cancels `task` the way ClosureKit's own cancellations do (see
  /// ``SessionDelegate/cancel(_:)``), holding the delegate queue and the delegate but not the
  /// wrapper.
  func safeCancellation(of task: URLSessionTask) -> @Sendable () -> Void {
    let delegate = delegate
    let queue = session.delegateQueue
    return { delegate.cancel(task, on: queue) }
  }

  /// Creates a data task that calls `handlers`; call `resume()` to start it.
  ///
  /// ```swift
  /// let task = session.dataTask(with: request, handlers: URLTaskHandlers(completion: { print($0) }))
  /// task.resume()
  /// ```
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - handlers: The task's closures.
  /// - Returns: The task, suspended, as URLSession creates it.
  ///
  /// > Important: The closures run on the session's delegate queue; `completion` runs exactly once
  /// > after `resume()`, also on `cancel()` and on invalidation.
  public func dataTask(with request: URLRequest, handlers: URLTaskHandlers) -> URLSessionDataTask {
    let task = session.dataTask(with: request)
    delegate.register(task, handlers: handlers)
    return task
  }

  /// Creates an upload task that sends `body` and calls `handlers`; call `resume()` to start it.
  ///
  /// ```swift
  /// var request = URLRequest(url: url)
  /// request.httpMethod = "PUT"
  /// let task = session.uploadTask(with: request, from: body, handlers: URLTaskHandlers(
  ///   uploadProgress: { print($0.completedBytes) }
  /// ))
  /// task.resume()
  /// ```
  ///
  /// - Parameters:
  ///   - request: The request; its `httpBody` is ignored.
  ///   - body: The bytes to send.
  ///   - handlers: The task's closures.
  /// - Returns: The task, suspended.
  ///
  /// > Important: As ``dataTask(with:handlers:)``.
  public func uploadTask(with request: URLRequest, from body: Data, handlers: URLTaskHandlers)
    -> URLSessionUploadTask
  {
    let task = session.uploadTask(with: request, from: body)
    delegate.register(task, handlers: handlers)
    return task
  }

  /// Lets running tasks finish, then releases the delegate and every closure.
  ///
  /// ```swift
  /// session.finishTasksAndInvalidate()
  /// ```
  ///
  /// > Important: New tasks cannot be created afterwards (URLSession's rule).
  public func finishTasksAndInvalidate() {
    session.finishTasksAndInvalidate()
  }

  /// Cancels every task (each completes with `URLError.cancelled`) and releases the delegate.
  ///
  /// ```swift
  /// session.invalidateAndCancel()
  /// ```
  ///
  /// > Important: New tasks cannot be created afterwards (URLSession's rule).
  public func invalidateAndCancel() {
    session.invalidateAndCancel()
  }
}
