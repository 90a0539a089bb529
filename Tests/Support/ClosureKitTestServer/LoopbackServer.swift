public import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests, benchmarks and the demo.
///
/// ```swift
/// let server = try LoopbackServer()
/// defer { server.stop() }
/// let (data, _) = try await URLSession.shared.data(from: server.url("/bytes/10"))
/// ```
///
/// One thread accepts; one thread serves each connection and closes it after one response
/// (`Connection: close`). Routes:
/// - `/bytes/N`: `N` bytes, the byte at offset `i` being `UInt8(i % 256)`, with `Content-Length`.
/// - `/paced/N/MS`: as `/bytes/N`, in 20 pieces `MS` milliseconds apart (default 50).
/// - `/lines/N`: `N` lines `line i\n`.
/// - `/feed/N`: an RSS 2.0 feed that grows: the k-th `/feed/` request served lists items 1 to
///   min(k, `N`), each with a `<title>Item i</title>` and a `<guid>item-i</guid>` (the example
///   program `feedwatch` polls it).
/// - `/slow/N`: a chunked body of `N` chunks `chunk i\n`, 20 ms apart (`/slow/N/MS` sets the gap).
/// - `/redirect/CODE/relative/PATH` and `/redirect/CODE/absolute/PATH`: status `CODE` with a
///   `Location` of `/PATH` or `http://127.0.0.1:PORT/PATH`, trailing slash kept.
/// - `/echo/...`: `METHOD TARGET BODYBYTES`, the request as the server saw it.
/// - `/status/CODE`: that status with a short body.
/// - `/basic-auth/USER/PASSWORD`: 401 with a Basic challenge unless the credentials match.
/// - `/never`: reads the request and never answers.
/// - `/reflect`: answers with the request body.
/// - `/upload`: reads the body (`Content-Length` or chunked) and answers `received N`.
/// - `/truncated/N`: announces `N` bytes, sends half and closes the connection.
/// - `/malformed/status-line`: a status line whose code is not a number (`HTTP/1.1 abc Broken`).
/// - `/malformed/garbage`: bytes that are not HTTP at all, then closes the connection.
/// - `/large-header/N`: a 200 response with one header line of `N` bytes.
/// - `/gzip/N`: `N` zero bytes, gzip-compressed (`Content-Encoding: gzip`, `Content-Length` of the
///   compressed body, about `N / 250` bytes), sent in 20 pieces 5 ms apart.
///
/// > Important: Thread-safe. ``stop()`` closes the listener and every open connection, waits for
/// > every server thread to end, and is idempotent; tests call it before they return.
///
/// `@unchecked Sendable`: the mutable state is read and written only under `lock`.
public final class LoopbackServer: @unchecked Sendable {
  /// The port the server listens on.
  public let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private let threads = DispatchGroup()
  /// Where the deadlines of ``wait(timeout:until:)`` fire, and ``stop()-async`` resumes.
  private let deadlines = DispatchQueue(label: "LoopbackServer.deadlines")
  /// Open connection sockets, shut down by `stop()`.
  private var connections: Set<Int32> = []
  /// Set once by `stop()`.
  private var isStopped = false
  /// Request targets in arrival order.
  private var targets: [String] = []
  /// Body bytes received by `/upload`, in total.
  private var uploaded = 0
  /// Tasks waiting in ``wait(timeout:until:)``, by id.
  private var waiters: [Int: (condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Bool, Never>)] =
    [:]
  /// The id of the next waiter.
  private var nextWaiter = 0

  /// What ``wait(timeout:until:)`` conditions see.
  public struct State: Sendable {
    /// The connections currently open.
    public var openConnectionCount: Int
    /// The request targets received so far, in order.
    public var requestTargets: [String]
  }

  /// Starts a server on 127.0.0.1 and an ephemeral port.
  ///
  /// ```swift
  /// let server = try LoopbackServer()
  /// ```
  ///
  /// - Throws: `POSIXError` if the socket cannot be created, bound or listened on.
  public init() throws {
    // Close-on-exec: a child process (an exit test) must not inherit the server's sockets, or a
    // connection the server closes stays open in the child.
    switch Sockets.listenOnLoopback() {
    case .success(let socket):
      listener = socket.descriptor
      port = socket.port
    case .failure(let error):
      throw POSIXError(POSIXErrorCode(rawValue: error.code) ?? .EIO)
    }
    threads.enter()
    let thread = Thread { [self] in
      acceptLoop()
      threads.leave()
    }
    thread.name = "LoopbackServer.accept"
    thread.start()
  }

  deinit {
    stop()
  }

  /// The server's root URL, `http://127.0.0.1:PORT`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// The URL of `path` on this server.
  ///
  /// ```swift
  /// let url = server.url("/bytes/100")
  /// ```
  ///
  /// - Parameter path: An absolute path with an optional query, such as `/status/404`.
  /// - Returns: `http://127.0.0.1:PORT` followed by `path`.
  public func url(_ path: String) -> URL {
    precondition(path.hasPrefix("/"), "LoopbackServer.url(_:): the argument `path` must start with /, got \(path)")
    return URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  /// The request targets received so far, in order.
  public var requestTargets: [String] { lock.withLock { targets } }

  /// The connections currently open.
  public var openConnectionCount: Int { lock.withLock { connections.count } }

  /// The body bytes `/upload` has received, in total.
  public var uploadedByteCount: Int { lock.withLock { uploaded } }

  /// Waits until `condition` holds for the server's state, or the deadline passes; never polls.
  ///
  /// ```swift
  /// #expect(await server.wait(until: { $0.openConnectionCount == 0 }))
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: The longest wait.
  ///   - condition: Checked now and after every change of the state, under the server's lock.
  /// - Returns: `true` once the condition holds, `false` at the deadline.
  public func wait(timeout: Duration = .seconds(30), until condition: @escaping @Sendable (State) -> Bool) async
    -> Bool
  {
    await withCheckedContinuation { continuation in
      let waiter = lock.withLock { () -> Int? in
        if condition(state) { return nil }
        nextWaiter += 1
        waiters[nextWaiter] = (condition, continuation)
        return nextWaiter
      }
      guard let waiter else {
        continuation.resume(returning: true)
        return
      }
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      // A queue of its own, not a global one, whose workers are the cooperative pool's on Linux.
      deadlines.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
        lock.withLock { waiters.removeValue(forKey: waiter) }?.continuation.resume(returning: false)
      }
    }
  }

  /// The state, under `lock`.
  private var state: State { State(openConnectionCount: connections.count, requestTargets: targets) }

  /// Changes the state under `lock`, then resumes the waiters whose condition now holds.
  private func change(_ body: () -> Void) {
    let ready = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
      body()
      let current = state
      let met = waiters.filter { $0.value.condition(current) }
      for id in met.keys { waiters.removeValue(forKey: id) }
      return met.values.map(\.continuation)
    }
    for continuation in ready { continuation.resume(returning: true) }
  }

  /// Closes the listener and every connection and waits for the server threads to end.
  ///
  /// ```swift
  /// server.stop()
  /// ```
  ///
  /// > Important: Idempotent; blocks until every server thread has returned. From async code, use
  /// > ``stop()-async``, which waits without blocking a thread of the cooperative pool.
  public func stop() {
    guard beginStopping() else { return }
    threads.wait()
    Sockets.close(listener)
  }

  /// Closes the listener and every connection and waits for the server threads to end, without
  /// blocking the caller's thread.
  ///
  /// ```swift
  /// await server.stop()
  /// ```
  ///
  /// > Important: Idempotent; resumes when every server thread has returned.
  public func stop() async {
    guard beginStopping() else { return }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      threads.notify(queue: deadlines) { done.resume() }
    }
    Sockets.close(listener)
  }

  /// Marks the server stopped and shuts the listener and every connection down; `false` if it
  /// was already stopped.
  private func beginStopping() -> Bool {
    let first = lock.withLock { () -> Bool in
      if isStopped { return false }
      isStopped = true
      for connection in connections { Sockets.shutdown(connection) }
      return true
    }
    guard first else { return false }
    Sockets.shutdown(listener)
    return true
  }

  // MARK: - Connections

  private func acceptLoop() {
    while let connection = Sockets.accept(listener) {
      var admitted = false
      change {
        guard !isStopped else { return }
        connections.insert(connection)
        admitted = true
      }
      guard admitted else {
        Sockets.close(connection)
        return
      }
      threads.enter()
      let thread = Thread { [self] in
        serve(Socket(fd: connection))
        change {
          connections.remove(connection)
          Sockets.close(connection)
        }
        threads.leave()
      }
      thread.name = "LoopbackServer.connection"
      thread.start()
    }
  }

  private func serve(_ socket: Socket) {
    guard let request = socket.readRequest() else { return }
    change { targets.append(request.target) }
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    let route = parts.first ?? ""
    let argument = parts.count > 1 ? parts[1] : ""
    switch route {
    case "bytes":
      sendBytes(socket, count: Int(argument) ?? 0, sent: Int(argument) ?? 0)
    case "paced":
      let count = Int(argument) ?? 0
      let gap = parts.count > 2 ? Int(parts[2]) ?? 50 : 50
      sendBytes(socket, count: count, sent: count, pieces: 20, gapMilliseconds: gap)
    case "truncated":
      let count = Int(argument) ?? 0
      sendBytes(socket, count: count, sent: count / 2)
    case "lines":
      let count = Int(argument) ?? 0
      let body = (0..<count).map { "line \($0)\n" }.joined()
      socket.respond(status: 200, body: Array(body.utf8), contentType: "text/plain; charset=utf-8")
    case "feed":
      let served = lock.withLock { targets.filter { $0.hasPrefix("/feed/") }.count }
      socket.respond(
        status: 200, body: Array(Self.feed(items: min(served, Int(argument) ?? 0)).utf8),
        contentType: "application/rss+xml; charset=utf-8")
    case "slow":
      sendSlow(socket, chunks: Int(argument) ?? 0, gapMilliseconds: parts.count > 2 ? Int(parts[2]) ?? 20 : 20)
    case "redirect":
      redirect(socket, request: request, parts: parts)
    case "echo":
      let body = "\(request.method) \(request.target) \(socket.readBody(request).count)"
      socket.respond(status: 200, body: Array(body.utf8))
    case "status":
      let code = Int(argument) ?? 500
      socket.respond(status: code, body: Array("status \(code)".utf8))
    case "basic-auth":
      let user = argument
      let password = parts.count > 2 ? parts[2] : ""
      let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
      if request.headers["authorization"] == expected {
        socket.respond(status: 200, body: Array("authorized as \(user)".utf8))
      } else {
        socket.respond(
          status: 401,
          body: Array("unauthorized".utf8),
          extraHeaders: ["WWW-Authenticate: Basic realm=\"ClosureKit\""]
        )
      }
    case "never":
      _ = socket.waitForClose(milliseconds: -1)
    case "reflect":
      socket.respond(status: 200, body: socket.readBody(request))
    case "malformed":
      if argument == "status-line" {
        _ = socket.send(Array("HTTP/1.1 abc Broken\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8))
      } else {
        _ = socket.send(Array("\u{0}\u{1}\u{2} this is not HTTP \u{7f}\r\n\r\n".utf8))
      }
    case "large-header":
      let size = Int(argument) ?? 0
      socket.respond(
        status: 200,
        body: Array("large header".utf8),
        extraHeaders: ["X-Large: " + String(repeating: "a", count: max(0, size - 9))]
      )
    case "gzip":
      sendGzip(socket, zeros: Int(argument) ?? 0)
    case "upload":
      let body = socket.readBody(request)
      lock.withLock { uploaded += body.count }
      socket.respond(status: 200, body: Array("received \(body.count)".utf8))
    default:
      socket.respond(status: 404, body: Array("no route \(request.path)".utf8))
    }
  }

  /// An RSS 2.0 document listing items 1 to `count`, newest first.
  static func feed(items count: Int) -> String {
    let items = stride(from: count, through: 1, by: -1).map { index in
      "<item><title>Item \(index)</title><guid>item-\(index)</guid></item>"
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Loopback news</title>"
      + items.joined() + "</channel></rss>\n"
  }

  private func sendBytes(_ socket: Socket, count: Int, sent: Int, pieces: Int = 1, gapMilliseconds: Int = 0) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(count)\r\n"
    guard socket.send(Array((head + "Connection: close\r\n\r\n").utf8)) else { return }
    let block = (0..<65_536).map { UInt8(truncatingIfNeeded: $0) }
    var remaining = sent
    let piece = max(1, sent / pieces)
    var untilGap = piece
    while remaining > 0 {
      if untilGap == 0 {
        guard socket.waitForClose(milliseconds: gapMilliseconds) else { return }
        untilGap = piece
      }
      let size = min(remaining, block.count, untilGap)
      untilGap -= size
      guard block.withUnsafeBytes({ socket.send(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }) else { return }
      remaining -= size
    }
  }

  private func sendGzip(_ socket: Socket, zeros count: Int) {
    let body = Gzip.zeros(count)
    var head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    guard socket.send(Array(head.utf8)) else { return }
    let piece = max(1, (body.count + 19) / 20)
    var offset = 0
    while offset < body.count {
      if offset > 0, !socket.waitForClose(milliseconds: 5) { return }
      let end = min(body.count, offset + piece)
      guard socket.send(Array(body[offset..<end])) else { return }
      offset = end
    }
  }

  private func sendSlow(_ socket: Socket, chunks: Int, gapMilliseconds: Int) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    guard socket.send(Array(head.utf8)) else { return }
    for index in 0..<chunks {
      if index > 0, !socket.waitForClose(milliseconds: gapMilliseconds) { return }
      let text = "chunk \(index)\n"
      let chunk = String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n"
      guard socket.send(Array(chunk.utf8)) else { return }
    }
    _ = socket.send(Array("0\r\n\r\n".utf8))
  }

  private func redirect(_ socket: Socket, request: Request, parts: [String]) {
    guard parts.count >= 3, let code = Int(parts[1]) else {
      socket.respond(status: 400, body: Array("bad redirect".utf8))
      return
    }
    let rest = "/" + parts.dropFirst(3).joined(separator: "/")
    let location = parts[2] == "absolute" ? "http://127.0.0.1:\(port)\(rest)" : rest
    _ = socket.readBody(request)
    socket.respond(status: code, body: [], extraHeaders: ["Location: \(location)"])
  }
}

/// A parsed request head.
struct Request {
  var method: String
  var target: String
  var path: String
  /// Header names lowercased.
  var headers: [String: String]
  /// Bytes read past the head: the start of the body.
  var leftover: [UInt8]
}

/// A connected socket with the blocking reads and writes the server needs.
struct Socket {
  let fd: Int32

  func send(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { send($0) }
  }

  func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
    Sockets.send(fd, bytes)
  }

  /// Reads up to 64 KB; `nil` at end of stream or on error.
  func receive() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { Sockets.receive(fd, into: $0) }
    guard count > 0 else { return nil }
    return Array(buffer[0..<count])
  }

  /// Waits up to `milliseconds` (forever if negative); `false` if the peer closed or the server
  /// shut the socket down meanwhile.
  func waitForClose(milliseconds: Int) -> Bool {
    Sockets.waitForClose(fd, milliseconds: milliseconds)
  }

  func readRequest() -> Request? {
    var bytes: [UInt8] = []
    let separator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
      guard let more = receive() else { return nil }
      let searchFrom = max(0, bytes.count - 3)
      bytes += more
      if bytes.count >= 4 {
        for index in searchFrom...(bytes.count - 4) where Array(bytes[index..<index + 4]) == separator {
          headEnd = index
          break
        }
      }
    }
    guard let headEnd else { return nil }
    let head = String(decoding: bytes[0..<headEnd], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].lowercased()
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let target = requestLine[1]
    let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    return Request(
      method: requestLine[0],
      target: target,
      path: path,
      headers: headers,
      leftover: Array(bytes[(headEnd + 4)...])
    )
  }

  /// Reads the request body as `Content-Length` or chunked encoding says, answering
  /// `Expect: 100-continue` first.
  func readBody(_ request: Request) -> [UInt8] {
    if request.headers["expect"]?.lowercased() == "100-continue" {
      guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return [] }
    }
    var body = request.leftover
    if let length = request.headers["content-length"].flatMap({ Int($0) }) {
      while body.count < length {
        guard let more = receive() else { break }
        body += more
      }
      return body
    }
    guard request.headers["transfer-encoding"]?.lowercased() == "chunked" else { return body }
    var decoded: [UInt8] = []
    var raw = body
    var offset = 0
    func line() -> String? {
      while true {
        if let end = raw[offset...].firstIndex(of: 10) {
          let text = String(decoding: raw[offset..<end], as: UTF8.self)
          offset = end + 1
          return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let more = receive() else { return nil }
        raw += more
      }
    }
    while let sizeLine = line(), let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) {
      if size == 0 {
        _ = line()
        break
      }
      while raw.count < offset + size + 2 {
        guard let more = receive() else { return decoded }
        raw += more
      }
      decoded += raw[offset..<offset + size]
      offset += size + 2
    }
    return decoded
  }

  func respond(status: Int, body: [UInt8], contentType: String = "text/plain", extraHeaders: [String] = []) {
    var head = "HTTP/1.1 \(status) \(reason(status))\r\nContent-Type: \(contentType)\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n"
    for header in extraHeaders { head += header + "\r\n" }
    head += "\r\n"
    _ = send(Array(head.utf8) + body)
  }

  private func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 500: "Internal Server Error"
    default: "Status"
    }
  }
}

/// A gzip encoder for one kind of body, enough for the tests: `count` zero bytes as one DEFLATE
/// block with the fixed Huffman codes (RFC 1951 3.2.6), a literal 0 and then matches of length 258
/// at distance 1, in a gzip member (RFC 1952).
enum Gzip {
  static func zeros(_ count: Int) -> [UInt8] {
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
    var remaining = count
    if remaining > 0 {
      bits.writeCode(0x30, length: 8)  // literal 0
      remaining -= 1
    }
    while remaining >= 258 {
      bits.writeCode(0xC5, length: 8)  // length code 285: 258 bytes, no extra bits
      bits.writeCode(0, length: 5)  // distance code 0: distance 1
      remaining -= 258
    }
    for _ in 0..<remaining { bits.writeCode(0x30, length: 8) }
    bits.writeCode(0, length: 7)  // end of block
    var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    member += bits.bytes
    member += littleEndian(crc32OfZeros(count))
    member += littleEndian(UInt32(truncatingIfNeeded: count))
    return member
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  private static func crc32OfZeros(_ count: Int) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for _ in 0..<count {
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// Packs bits least significant first, as DEFLATE does.
  private struct BitWriter {
    var bytes: [UInt8] = []
    var used = 8

    /// Writes the low `count` bits of `value`, least significant first (header fields).
    mutating func write(_ value: UInt32, count: Int) {
      for bit in 0..<count { push(UInt8((value >> bit) & 1)) }
    }

    /// Writes a Huffman code, most significant bit first.
    mutating func writeCode(_ code: UInt32, length: Int) {
      for bit in stride(from: length - 1, through: 0, by: -1) { push(UInt8((code >> bit) & 1)) }
    }

    private mutating func push(_ bit: UInt8) {
      if used == 8 {
        bytes.append(0)
        used = 0
      }
      bytes[bytes.count - 1] |= bit << used
      used += 1
    }
  }
}
