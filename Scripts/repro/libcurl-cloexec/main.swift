// Standalone (no ClosureKit): does FoundationNetworking (libcurl) open its sockets close-on-exec?
// A listener of our own (close-on-exec) accepts one connection and holds it; a URLSession request
// connects to it; while the request waits, every socket of this process is listed with its
// FD_CLOEXEC flag. A socket without it is inherited by every child process started meanwhile
// (posix_spawn, Process, a Swift Testing exit test), which keeps the connection open until the
// child exits. Run: Scripts/repro/libcurl-cloexec/run.sh
import Foundation
import Glibc

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_addr.s_addr = inet_addr("127.0.0.1")
var length = socklen_t(MemoryLayout<sockaddr_in>.size)
withUnsafeMutablePointer(to: &address) {
  $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
    precondition(bind(listener, pointer, length) == 0 && listen(listener, 4) == 0)
    precondition(getsockname(listener, pointer, &length) == 0)
  }
}
let port = UInt16(bigEndian: address.sin_port)

let task = URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/")!) { _, _, _ in }
task.resume()
let accepted = accept(listener, nil, nil)
precondition(accepted >= 0 && fcntl(accepted, F_SETFD, FD_CLOEXEC) == 0)

var inherited = 0
for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
  guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
    target.hasPrefix("socket:")
  else { continue }
  let closeOnExec = fcntl(fd, F_GETFD) & FD_CLOEXEC != 0
  let role = fd == listener ? "our listener" : fd == accepted ? "our accepted end" : "not ours (URLSession/libcurl)"
  print("fd \(fd) \(target): close-on-exec \(closeOnExec ? "yes" : "NO") - \(role)")
  if !closeOnExec { inherited += 1 }
}
print(inherited == 0 ? "every socket is close-on-exec" : "\(inherited) socket(s) would be inherited by a child process")
task.cancel()
close(accepted)
close(listener)
exit(inherited == 0 ? 0 : 1)
