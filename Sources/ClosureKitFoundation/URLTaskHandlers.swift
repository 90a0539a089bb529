public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// The closures one task of a ``ClosureURLSession`` calls, each optional.
///
/// An unset closure means what URLSession does without a delegate method: an unset
/// ``response`` allows the response, an unset ``redirect`` follows the redirect, an unset
/// ``challenge`` performs default handling.
///
/// ```swift
/// let task = session.dataTask(
///   with: URLRequest(url: url),
///   handlers: URLTaskHandlers(
///     data: { chunk in print("received", chunk.count, "bytes") },
///     completion: { result in print(result) }
///   )
/// )
/// task.resume()
/// ```
///
/// > Important: Every closure of a session runs on that session's serial delegate queue, one at a
/// > time, in the order URLSession reports events. ``completion`` runs exactly once per task that
/// > was resumed: on success, on every error, on cancellation and when the session is invalidated.
/// > After it runs, the task's closures are released.
public struct URLTaskHandlers: Sendable {
  /// Receives the response head; returns `.allow` to receive the body or `.cancel` to cancel the
  /// task (which really cancels it, also on Linux). Unset: `.allow`.
  public var response: (@Sendable (URLResponse) -> URLSession.ResponseDisposition)?
  /// Receives each chunk of the body, in order.
  public var data: (@Sendable (Data) -> Void)?
  /// Receives the bytes of the request body sent so far.
  public var uploadProgress: (@Sendable (TransferProgress) -> Void)?
  /// Receives the bytes of the response body received so far, after each chunk.
  public var downloadProgress: (@Sendable (TransferProgress) -> Void)?
  /// Receives a redirect response and the request that follows it; returns the request to follow
  /// (possibly changed) or `nil` to stop and receive the redirect response itself. Unset: follow.
  public var redirect: (@Sendable (HTTPURLResponse, URLRequest) -> URLRequest?)?
  /// Answers an authentication challenge for the task. Unset: `.performDefaultHandling`.
  public var challenge:
    (@Sendable (URLAuthenticationChallenge) -> (URLSession.AuthChallengeDisposition, URLCredential?))?
  /// Receives the final response, or the error that ended the task; runs exactly once.
  public var completion: (@Sendable (Result<URLResponse, URLError>) -> Void)?

  /// Creates a set of task closures; leave out the ones you do not need.
  ///
  /// ```swift
  /// let handlers = URLTaskHandlers(
  ///   redirect: { _, request in request.url?.host == "example.com" ? request : nil },
  ///   completion: { result in print(result) }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - response: Answers the response head. Unset: allow.
  ///   - data: Receives each body chunk.
  ///   - uploadProgress: Receives upload progress.
  ///   - downloadProgress: Receives download progress.
  ///   - redirect: Returns the request to follow or `nil`. Unset: follow.
  ///   - challenge: Answers an authentication challenge. Unset: default handling.
  ///   - completion: Receives the outcome, exactly once.
  public init(
    response: (@Sendable (URLResponse) -> URLSession.ResponseDisposition)? = nil,
    data: (@Sendable (Data) -> Void)? = nil,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    redirect: (@Sendable (HTTPURLResponse, URLRequest) -> URLRequest?)? = nil,
    challenge: (@Sendable (URLAuthenticationChallenge) -> (URLSession.AuthChallengeDisposition, URLCredential?))? =
      nil,
    completion: (@Sendable (Result<URLResponse, URLError>) -> Void)? = nil
  ) {
    self.response = response
    self.data = data
    self.uploadProgress = uploadProgress
    self.downloadProgress = downloadProgress
    self.redirect = redirect
    self.challenge = challenge
    self.completion = completion
  }
}
