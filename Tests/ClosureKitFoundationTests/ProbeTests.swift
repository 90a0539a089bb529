import ClosureKitTestServer
import ClosureKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class ProbeDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
  let lock = NSLock()
  var log: [String] = []
  var bytes = 0
  let done = Expectation()
  var disposition: URLSession.ResponseDisposition = .allow
  var cancelOnResponse = false
  var suspendAt = -1
  weak var suspendedTask: URLSessionTask?
  func note(_ s: String) { lock.withLock { log.append(s) } }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
    note("response \((response as? HTTPURLResponse)?.statusCode ?? -1) expected \(response.expectedContentLength)")
    completionHandler(disposition)
    if cancelOnResponse { dataTask.cancel() }
  }
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let total = lock.withLock { bytes += data.count; return bytes }
    if suspendAt >= 0 && total >= suspendAt && suspendedTask == nil {
      suspendedTask = dataTask
      dataTask.suspend()
      note("suspended at \(total) state \(dataTask.state.rawValue)")
    }
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
    note("sent \(bytesSent) total \(totalBytesSent) expected \(totalBytesExpectedToSend)")
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
    note("redirect \(response.statusCode) location \(response.value(forHTTPHeaderField: "Location") ?? "nil") new \(request.url?.absoluteString ?? "nil") method \(request.httpMethod ?? "nil")")
    completionHandler(request)
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
    note("task challenge \(challenge.protectionSpace.authenticationMethod) failures \(challenge.previousFailureCount)")
    completionHandler(.useCredential, URLCredential(user: "u", password: "p", persistence: .forSession))
  }
  func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
    note("session challenge \(challenge.protectionSpace.authenticationMethod)")
    completionHandler(.performDefaultHandling, nil)
  }
  func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
    note("wrote \(bytesWritten) total \(totalBytesWritten) expected \(totalBytesExpectedToWrite)")
  }
  func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
    note("downloaded to \(location.path) exists \(FileManager.default.fileExists(atPath: location.path))")
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let e = error as NSError?
    note("complete bytes \(lock.withLock { bytes }) error \(e?.domain ?? "nil") \(e?.code ?? 0) \(type(of: error)) url \(task.response?.url?.absoluteString ?? "nil") progress \(task.progress.completedUnitCount)")
    done.fulfill()
  }
  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
    note("invalid")
  }
}

func probe(_ name: String, _ configure: (ProbeDelegate) -> Void = { _ in }, timeout: TimeInterval = 5, make: (URLSession) -> URLSessionTask) async {
  let d = ProbeDelegate()
  configure(d)
  let config = URLSessionConfiguration.ephemeral
  config.timeoutIntervalForRequest = timeout
  let s = URLSession(configuration: config, delegate: d, delegateQueue: nil)
  let t = make(s)
  t.resume()
  if d.suspendAt >= 0 {
    // wait for suspension, then observe and resume
    for _ in 0..<2000 { if d.lock.withLock({ d.suspendedTask != nil }) { break }; await Task.yield() }
    let before = d.lock.withLock { d.bytes }
    _ = await Expectation().wait(timeout: .milliseconds(300))
    let after = d.lock.withLock { d.bytes }
    d.note("while suspended bytes \(before) -> \(after)")
    t.resume()
  }
  let ok = await d.done.wait(timeout: .seconds(8))
  s.finishTasksAndInvalidate()
  print("PROBE \(name): completed=\(ok)\n  " + d.lock.withLock { d.log }.joined(separator: "\n  "))
}

@Test func probeLinux() async throws {
  let server = try LoopbackServer()
  defer { server.stop() }
  let tmpBefore = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [])
  await probe("cancel disposition", { $0.disposition = .cancel }) { $0.dataTask(with: server.url("/bytes/5000000")) }
  await probe("cancel disposition + task.cancel", { $0.disposition = .cancel; $0.cancelOnResponse = true }) { $0.dataTask(with: server.url("/bytes/5000000")) }
  await probe("suspend", { $0.suspendAt = 1 }) { $0.dataTask(with: server.url("/bytes/20000000")) }
  await probe("redirect absolute 301") { $0.dataTask(with: server.url("/redirect/301/absolute/echo/dir/")) }
  await probe("redirect relative 302") { $0.dataTask(with: server.url("/redirect/302/relative/echo/dir/")) }
  await probe("redirect 307 POST") { s in
    var r = URLRequest(url: server.url("/redirect/307/absolute/echo/x/")); r.httpMethod = "POST"; r.httpBody = Data("hello".utf8)
    return s.dataTask(with: r)
  }
  await probe("upload 3MB") { s in
    var r = URLRequest(url: server.url("/upload")); r.httpMethod = "POST"
    return s.uploadTask(with: r, from: Data(count: 3_000_000))
  }
  await probe("basic auth") { $0.dataTask(with: server.url("/basic-auth/u/p")) }
  await probe("download") { $0.downloadTask(with: server.url("/bytes/3000000")) }
  await probe("download truncated") { $0.downloadTask(with: server.url("/truncated/3000000")) }
  await probe("unsupported scheme") { $0.dataTask(with: URL(string: "gopher://127.0.0.1/")!) }
  await probe("refused") { $0.dataTask(with: URL(string: "http://127.0.0.1:1/")!) }
  await probe("truncated") { $0.dataTask(with: server.url("/truncated/3000000")) }
  await probe("timeout", timeout: 0.5) { $0.dataTask(with: server.url("/never")) }
  await probe("404") { $0.dataTask(with: server.url("/status/404")) }
  let tmpAfter = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [])
  print("PROBE temp leftovers: \(tmpAfter.subtracting(tmpBefore)) in \(NSTemporaryDirectory())")
  print("PROBE server targets: \(server.requestTargets)")

  // Lifetime: does the session release its delegate after invalidation?
  weak var weakDelegate: ProbeDelegate?
  weak var weakSession: URLSession?
  do {
    let d = ProbeDelegate()
    let s = URLSession(configuration: .ephemeral, delegate: d, delegateQueue: nil)
    weakDelegate = d; weakSession = s
    s.finishTasksAndInvalidate()
  }
  for _ in 0..<100_000 { if weakDelegate == nil && weakSession == nil { break }; await Task.yield() }
  print("PROBE lifetime after invalidate: delegate \(weakDelegate == nil ? "released" : "alive") session \(weakSession == nil ? "released" : "alive")")
  weak var weakDelegate2: ProbeDelegate?
  do {
    let d = ProbeDelegate()
    _ = URLSession(configuration: .ephemeral, delegate: d, delegateQueue: nil)
    weakDelegate2 = d
  }
  for _ in 0..<10_000 { if weakDelegate2 == nil { break }; await Task.yield() }
  print("PROBE lifetime without invalidate: delegate \(weakDelegate2 == nil ? "released" : "alive")")
}
