import ClosureKit
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one delegate of a ``ClosureURLSession``'s URLSession: finds each task's closures by task
/// identifier and calls them, correcting FoundationNetworking's known deviations on the way.
///
/// It holds no reference to the session or to the wrapper; the session holds it until invalidated.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  /// One registered task.
  struct Entry {
    /// The user's closures.
    var handlers: URLTaskHandlers
    /// The last response passed on, the one completion reports.
    var response: URLResponse?
    /// Body bytes passed on.
    var received: Int64 = 0
    /// `Content-Length` of `response`, if known.
    var expected: Int64?
    /// Request body bytes sent.
    var sent: Int64 = 0
    /// Set when the response closure answered `.cancel`: no more data is passed on.
    var isCancelledByResponse = false
    /// A 401 response with a challenge, and its body, held back until it is known to be final.
    var heldResponse: URLResponse?
    /// The body of `heldResponse`.
    var heldData: [Data] = []
    /// Set when a challenge was declined on Linux: the cancellation that follows means "no
    /// credential", and the held 401 is the final response (as on Apple platforms).
    var declinedChallenge = false
  }

  /// Registered tasks by `taskIdentifier`; an entry is removed exactly once, when its task completes.
  let entries = Locked<[Int: Entry]>([:])

  /// Run once the session is invalidated, after every remaining completion (tests use it).
  let invalidationHandlers = Locked<[@Sendable () -> Void]>([])

  /// Registers the closures of a task that has not been resumed yet.
  func register(_ task: URLSessionTask, handlers: URLTaskHandlers) {
    entries.withLock { $0[task.taskIdentifier] = Entry(handlers: handlers) }
  }

  /// The number of tasks whose completion has not run yet.
  var pendingCount: Int { entries.withLock { $0.count } }

  /// Cancels `task` from the session's delegate queue, and only while its completion has not run.
  ///
  /// Every cancellation ClosureKit makes goes through here. On the delegate queue the task's
  /// completion (which runs there and then marks the task completed) cannot run at the same time as
  /// `cancel()` checks the task's state; a task whose entry is gone has completed and is left alone.
  /// The larger hazard, a `URLCache` lookup that delays the cancellation past the task's completion,
  /// is removed by the session having no cache on Linux (see ``ClosureURLSession/init(configuration:)``).
  func cancel(_ task: URLSessionTask, on queue: OperationQueue) {
    queue.addOperation { [self] in
      guard entries.withLock({ $0[task.taskIdentifier] != nil }) else { return }
      task.cancel()
    }
  }

  // MARK: Response and body

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let isChallenge =
      (response as? HTTPURLResponse).map {
        $0.statusCode == 401 && $0.value(forHTTPHeaderField: "WWW-Authenticate") != nil
      } ?? false
    let handler = entries.withLock { entries -> (@Sendable (URLResponse) -> URLSession.ResponseDisposition)?? in
      guard var entry = entries[dataTask.taskIdentifier] else { return nil }
      // A newer response replaces a held 401: the challenge was answered and the request retried.
      entry.heldResponse = nil
      entry.heldData = []
      if isChallenge {
        entry.heldResponse = response
      } else {
        entry.response = response
        entry.received = 0
        entry.expected = Self.expectedBodyBytes(of: response)
      }
      entries[dataTask.taskIdentifier] = entry
      return .some(isChallenge ? nil : entry.handlers.response)
    }
    guard case .some(let handler) = handler, let handler else {
      completionHandler(.allow)
      return
    }
    let disposition = handler(response)
    guard disposition == .cancel else {
      completionHandler(disposition)
      return
    }
    entries.withLock { $0[dataTask.taskIdentifier]?.isCancelledByResponse = true }
    completionHandler(.cancel)
    // FoundationNetworking ignores `.cancel` and delivers the whole body; cancel for real.
    dataTask.cancel()
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let delivery = entries.withLock { entries -> (URLTaskHandlers, TransferProgress)? in
      guard var entry = entries[dataTask.taskIdentifier], !entry.isCancelledByResponse else { return nil }
      if entry.heldResponse != nil {
        entry.heldData.append(data)
        entries[dataTask.taskIdentifier] = entry
        return nil
      }
      entry.received += Int64(data.count)
      entries[dataTask.taskIdentifier] = entry
      return (entry.handlers, TransferProgress(completedBytes: entry.received, expectedBytes: entry.expected))
    }
    guard let (handlers, progress) = delivery else { return }
    handlers.data?(data)
    handlers.downloadProgress?(progress)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    let delivery = entries.withLock { entries -> (@Sendable (TransferProgress) -> Void, TransferProgress)? in
      guard var entry = entries[task.taskIdentifier] else { return nil }
      entry.sent += bytesSent
      entries[task.taskIdentifier] = entry
      guard let handler = entry.handlers.uploadProgress else { return nil }
      let expected = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
      let sent = expected.map { min($0, entry.sent) } ?? entry.sent
      return (handler, TransferProgress(completedBytes: sent, expectedBytes: expected))
    }
    guard let (handler, progress) = delivery else { return }
    handler(progress)
  }

  // MARK: Redirects and challenges

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    var next = request
    // FoundationNetworking drops the trailing slash of a relative `Location`; resolve it ourselves.
    if let location = response.value(forHTTPHeaderField: "Location"),
      let resolved = URL(string: location, relativeTo: response.url)?.absoluteURL,
      resolved != request.url
    {
      next.url = resolved
    }
    let handler = entries.withLock { $0[task.taskIdentifier]?.handlers.redirect }
    guard let handler else {
      completionHandler(next)
      return
    }
    completionHandler(handler(response, next))
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    let handler = entries.withLock { $0[task.taskIdentifier]?.handlers.challenge }
    var (disposition, credential) = handler?(challenge) ?? (.performDefaultHandling, nil)
    #if canImport(FoundationNetworking)
      // FoundationNetworking never completes a task whose challenge gets default handling without
      // a stored credential, or `.useCredential` with none, and cancels one whose protection space
      // is rejected. Apple's behaviour is to continue without a credential and deliver the 401.
      if disposition == .performDefaultHandling {
        if challenge.previousFailureCount == 0,
          let stored = session.configuration.urlCredentialStorage?.defaultCredential(for: challenge.protectionSpace)
        {
          disposition = .useCredential
          credential = stored
        } else {
          disposition = .rejectProtectionSpace
        }
      }
      if disposition == .useCredential, credential == nil { disposition = .rejectProtectionSpace }
      if disposition == .rejectProtectionSpace {
        entries.withLock { $0[task.taskIdentifier]?.declinedChallenge = true }
      }
    #endif
    completionHandler(disposition, credential)
  }

  // MARK: Completion

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    var final = entry
    var error = error
    let isCancellation = (error as NSError?).map { $0.domain == NSURLErrorDomain && $0.code == NSURLErrorCancelled }
    if entry.declinedChallenge, isCancellation == true, entry.heldResponse != nil { error = nil }
    if let held = entry.heldResponse, error == nil {
      // The 401 was final: pass it on now, with its body.
      final.response = held
      final.received = 0
      final.expected = Self.expectedBodyBytes(of: held)
      _ = entry.handlers.response?(held)
      for chunk in entry.heldData {
        final.received += Int64(chunk.count)
        entry.handlers.data?(chunk)
        entry.handlers.downloadProgress?(
          TransferProgress(completedBytes: final.received, expectedBytes: final.expected))
      }
    }
    entry.handlers.completion?(Self.result(of: final, error: error))
  }

  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
    // A safety net: a task URLSession never completed still gets its completion exactly once.
    let remaining = entries.withLock { entries -> [Entry] in
      defer { entries = [:] }
      return Array(entries.values)
    }
    for entry in remaining { entry.handlers.completion?(.failure(URLError(.cancelled))) }
    let handlers = invalidationHandlers.withLock { handlers in
      defer { handlers = [] }
      return handlers
    }
    for handler in handlers { handler() }
  }

  /// The body bytes the data closure will receive, if the response says: `Content-Length`, unless
  /// the body is content-encoded (gzip, deflate, br). URLSession decodes such a body before passing it
  /// on, and `Content-Length` counts the encoded bytes, which ClosureKit never sees on Linux; so the
  /// expected size is unknown rather than a number the decoded bytes overtake after the first chunk.
  static func expectedBodyBytes(of response: URLResponse) -> Int64? {
    guard response.expectedContentLength >= 0 else { return nil }
    if let encoding = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding")?
      .trimmingCharacters(in: .whitespaces).lowercased(), !encoding.isEmpty, encoding != "identity"
    {
      return nil
    }
    return response.expectedContentLength
  }

  /// The typed outcome of a finished task.
  static func result(of entry: Entry, error: (any Error)?) -> Result<URLResponse, URLError> {
    if entry.isCancelledByResponse { return .failure(URLError(.cancelled)) }
    if let error {
      if let urlError = error as? URLError {
        return .failure(normalized(urlError, entry: entry))
      }
      let nsError = error as NSError
      if nsError.domain == NSURLErrorDomain {
        // Optional on Linux, not on Apple platforms: the annotation makes both compile.
        let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
        return .failure(normalized(URLError(code ?? .unknown, userInfo: nsError.userInfo), entry: entry))
      }
      return .failure(URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]))
    }
    guard let response = entry.response else { return .failure(URLError(.badServerResponse)) }
    return .success(response)
  }

  /// Replaces FoundationNetworking's codes with the ones Apple's URLSession reports for the same
  /// failure; the replaced error stays available as `NSUnderlyingErrorKey`.
  ///
  /// - A body cut short: FoundationNetworking `.unknown` (-1); Apple `.networkConnectionLost`
  ///   (-1005). Used when fewer bytes than `Content-Length` arrived.
  /// - A response that is not HTTP (a malformed status line, HTTP/0.9 garbage): libcurl's
  ///   "unsupported protocol", which FoundationNetworking reports as `.unsupportedURL` (-1002) even
  ///   for an `http` URL; Apple `.badServerResponse` (-1011).
  /// - A response head larger than libcurl accepts (100 kB) or that libcurl calls a "weird server
  ///   reply": `.unknown` (-1, "Out of memory"); Apple `.badServerResponse` (-1011).
  static func normalized(_ error: URLError, entry: Entry) -> URLError {
    if error.code == .unknown, let expected = entry.expected, entry.received < expected {
      return URLError(.networkConnectionLost, userInfo: error.userInfo)
    }
    #if canImport(FoundationNetworking)
      let scheme = (error.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.scheme?.lowercased()
      let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
      guard scheme == "http" || scheme == "https", entry.response == nil, let underlying else { return error }
      let isBadResponse: Bool
      switch error.code {
      case .unsupportedURL:
        // The URL's scheme is supported; what libcurl did not support is the server's answer.
        isBadResponse = true
      case .unknown:
        isBadResponse = ["Out of memory", "Weird server reply"].contains(underlying.localizedDescription)
      default:
        isBadResponse = false
      }
      guard isBadResponse else { return error }
      var userInfo = error.userInfo
      userInfo[NSUnderlyingErrorKey] = error as NSError
      userInfo[NSLocalizedDescriptionKey] =
        "The server's response could not be read: \(underlying.localizedDescription)."
      return URLError(.badServerResponse, userInfo: userInfo)
    #else
      return error
    #endif
  }
}
