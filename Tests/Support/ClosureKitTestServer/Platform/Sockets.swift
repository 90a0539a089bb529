#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The loopback server's socket calls: every operating-system call of the test server is here.
///
/// Each call retries on `EINTR`. Every socket is close-on-exec, so a child process (an exit test)
/// does not inherit it, and never raises SIGPIPE (`SO_NOSIGPIPE` on Darwin, `MSG_NOSIGNAL` on Linux).
enum Sockets {
  /// A listening TCP socket on 127.0.0.1 and an ephemeral port.
  /// - Returns: The socket and its port, or the `errno` of the call that failed.
  static func listenOnLoopback() -> Result<(descriptor: Int32, port: UInt16), SocketError> {
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
      if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    guard fd >= 0 else { return .failure(SocketError(code: errno)) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, 128) == 0 else {
      let code = errno
      close(fd)
      return .failure(SocketError(code: code))
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return .success((fd, UInt16(bigEndian: address.sin_port)))
  }

  /// Accepts the next connection on `listener`, close-on-exec and without SIGPIPE.
  /// - Returns: The connection, or `nil` once the listener is shut down or fails.
  static func accept(_ listener: Int32) -> Int32? {
    while true {
      // `accept4` with SOCK_CLOEXEC is not exported by the Glibc module; set the flag right after.
      let connection = systemAccept(listener)
      if connection >= 0 {
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
          var yes: Int32 = 1
          setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
      }
      if errno == EINTR { continue }
      return nil
    }
  }

  /// Writes all of `bytes`. - Returns: `false` if the connection failed first.
  static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      #if canImport(Darwin)
        let written = Darwin.send(fd, bytes.baseAddress! + offset, bytes.count - offset, 0)
      #else
        let written = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      #endif
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Reads what has arrived into `buffer`, waiting for at least one byte.
  /// - Returns: The number of bytes read; `0` at the end of the stream or on an error.
  static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      let count = recv(fd, buffer.baseAddress, buffer.count, 0)
      if count < 0, errno == EINTR { continue }
      return max(count, 0)
    }
  }

  /// Waits up to `milliseconds` (forever if negative) for `fd` to become readable.
  /// - Returns: `true` if the time passed with nothing to read; `false` if the peer closed, sent
  ///   data, or the socket was shut down meanwhile.
  static func waitForClose(_ fd: Int32, milliseconds: Int) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let result = poll(&descriptor, 1, Int32(milliseconds))
      if result < 0, errno == EINTR { continue }
      return result == 0
    }
  }

  /// Shuts down both directions of `fd`, waking any thread blocked on it.
  static func shutdown(_ fd: Int32) {
    _ = systemShutdown(fd, Int32(SHUT_RDWR))
  }

  /// Closes `fd`.
  static func close(_ fd: Int32) {
    _ = systemClose(fd)
  }
}

/// A failed socket call: its `errno`.
struct SocketError: Error {
  let code: Int32
}

/// `accept(2)` with no address, under a name ``Sockets/accept(_:)`` does not shadow.
private func systemAccept(_ listener: Int32) -> Int32 {
  accept(listener, nil, nil)
}

/// `shutdown(2)`, under a name ``Sockets/shutdown(_:)`` does not shadow.
private func systemShutdown(_ fd: Int32, _ how: Int32) -> Int32 {
  shutdown(fd, how)
}

/// `close(2)`, under a name ``Sockets/close(_:)`` does not shadow.
private func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}
