import ClosureKitFoundation
import ClosureKitTestServer
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Chapter {
  static let network = Chapter(
    name: "network",
    summary: "URLSession with per-task closures, bytes(for:) with progress, download(for:progress:)"
  ) {
    let server = try LoopbackServer()
    defer { server.stop() }
    print("A loopback HTTP/1.1 server is listening on \(server.baseURL.absoluteString).")
    let session = ClosureURLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }

    print("\n1. Streaming 2 MB with bytes(for:), showing progress as chunks arrive:")
    let (bytes, response) = try await session.bytes(for: URLRequest(url: server.url("/paced/2097152/40")))
    let expected = max(response.expectedContentLength, 1)
    var received: Int64 = 0
    var quartersShown = 0
    for try await chunk in bytes.chunks {
      received += Int64(chunk.count)
      let fraction = Double(received) / Double(expected)
      if Console.standardOutputIsTerminal {
        drawProgressBar(fraction: fraction, received: received)
      } else {
        // In a pipe or a file: one plain line at each quarter, no carriage returns.
        while quartersShown < 4, fraction >= Double(quartersShown + 1) / 4 {
          quartersShown += 1
          print("  \(quartersShown * 25)% (\(received / 1024) KB)")
        }
      }
    }
    if Console.standardOutputIsTerminal { print("") }

    print("\n2. Per-task closures: a redirect that is followed, shown as it happens:")
    let done = AsyncStream.makeStream(of: String.self)
    session.dataTask(
      with: URLRequest(url: server.url("/redirect/302/relative/echo/landing/")),
      handlers: URLTaskHandlers(
        data: { chunk in
          // The server echoes the request it saw: method, target, and the number of body bytes.
          print("  body (method, target, body bytes): \(String(decoding: chunk, as: UTF8.self))")
        },
        redirect: { response, request in
          print(
            "  \(response.statusCode) -> \(request.url?.absoluteString ?? "?") (followed: the closure returned the request)"
          )
          return request
        },
        completion: { result in
          switch result {
          case .success(let response): done.continuation.yield("completed once: \(response.url?.absoluteString ?? "?")")
          case .failure(let error): done.continuation.yield("completed once with \(error.code)")
          }
          done.continuation.finish()
        }
      )
    ).resume()
    for await line in done.stream { print("  \(line)") }

    print("\n3. Faults are typed errors: a server that never answers, with a 0.3 s timeout:")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 0.3
    let impatient = ClosureURLSession(configuration: configuration)
    do {
      _ = try await impatient.bytes(for: URLRequest(url: server.url("/never")))
    } catch let error as URLError {
      print("  URLError(.\(error.code == .timedOut ? "timedOut" : "\(error.code.rawValue)"))")
    }
    impatient.finishTasksAndInvalidate()

    print("\n4. download(for:progress:) writes to a file you own:")
    let (file, _) = try await session.download(for: URLRequest(url: server.url("/bytes/1000000"))) { _ in }
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    print("  \(size) bytes in \(file.lastPathComponent); removing it")
    try FileManager.default.removeItem(at: file)
  }
}

/// Redraws a 30-column progress bar on the current terminal line (only when standard output is a
/// terminal: a carriage return in a pipe would make one endless line).
@MainActor
private func drawProgressBar(fraction: Double, received: Int64) {
  let width = 30
  let filled = Int((fraction * Double(width)).rounded(.down))
  let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
  let percent = Int((fraction * 100).rounded(.down))
  print("\r  [\(bar)] \(percent)% \(received / 1024) KB", terminator: "")
  Console.flushOutput()  // redraw now
}
