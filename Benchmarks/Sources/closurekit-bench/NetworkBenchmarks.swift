import ClosureKitFoundation
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// `LoopbackServer.swift` in this folder is a symbolic link to the package's test server
// (Tests/Support/ClosureKitTestServer), which is not a product and so cannot be a dependency.

let networkSuite = Suite(name: "network") {
  let server: LoopbackServer
  do {
    server = try LoopbackServer()
  } catch {
    print("network: cannot start the loopback server: \(error)")
    return
  }
  defer { server.stop() }
  let size = 100 * 1024 * 1024
  let url = server.url("/bytes/\(size)")
  let megabytes = Double(size) / 1_048_576

  let session = ClosureURLSession(configuration: .ephemeral)

  // Peak memory first, in a fresh process: resident set growth while the body streams, sampled
  // every 16 chunks (later runs would hide it behind memory malloc keeps from earlier variants).
  var memory = Table("resident memory growth while reading 100 MB (peak)", unit: "MB")
  do {
    let before = residentBytes()
    var peak = before
    let (bytes, _) = try await session.bytes(for: URLRequest(url: url))
    var count = 0
    var checksum = 0
    for try await chunk in bytes.chunks {
      checksum &+= chunk.count
      count += 1
      if count % 16 == 0 { peak = max(peak, residentBytes()) }
    }
    blackHole(checksum)
    memory.add("bytes(for:).chunks", Double(max(0, peak - before)) / 1_048_576, baseline: true)
    let dataBefore = residentBytes()
    let (data, _) = try await URLSession.shared.data(for: URLRequest(url: url))
    memory.add("URLSession.data(for:) (holds the body)", Double(max(0, residentBytes() - dataBefore)) / 1_048_576)
    blackHole(data.count)
  } catch {
    print("network: \(error)")
  }
  memory.print()

  // Every variant reads every byte (a checksum), so the comparison is of delivery, not of work.
  // Rounds interleave the variants (rotating their order) so a change in machine load hits all of
  // them alike; the table shows medians. CPU time of the whole process (server included) is
  // printed too: on a loaded machine it is steadier than wall-clock throughput.
  let variants: [(name: String, body: @Sendable () async throws -> Int)] = [
    ("hand-written delegate", { try await handWrittenDelegate(url) }),
    (
      "URLSession.data(for:)",
      {
        let (data, _) = try await URLSession.shared.data(for: URLRequest(url: url))
        return data.withUnsafeBytes { sum($0) }
      }
    ),
    (
      "bytes(for:) per byte",
      {
        let (bytes, _) = try await session.bytes(for: URLRequest(url: url))
        var total = 0
        for try await byte in bytes { total &+= Int(byte) }
        return total
      }
    ),
    (
      "bytes(for:).chunks",
      {
        let (bytes, _) = try await session.bytes(for: URLRequest(url: url))
        var total = 0
        for try await chunk in bytes.chunks { total &+= chunk.withUnsafeBytes { sum($0) } }
        return total
      }
    ),
    (
      "dataTask + data closure",
      {
        try await withCheckedThrowingContinuation { continuation in
          let total = Locked(0)
          session.dataTask(
            with: URLRequest(url: url),
            handlers: URLTaskHandlers(
              data: { chunk in
                let part = chunk.withUnsafeBytes { sum($0) }
                total.withLock { $0 &+= part }
              },
              completion: { result in
                switch result {
                case .success: continuation.resume(returning: total.withLock { $0 })
                case .failure(let error): continuation.resume(throwing: error)
                }
              }
            )
          ).resume()
        }
      }
    ),
  ]
  var wall = Array(repeating: [Double](), count: variants.count)
  var cpu = Array(repeating: [Double](), count: variants.count)
  var checksum = 0
  let clock = ContinuousClock()
  for round in 0..<7 {
    for offset in 0..<variants.count {
      let index = (round + offset) % variants.count
      let cpuStart = processCPUSeconds()
      let start = clock.now
      do { checksum &+= try await variants[index].body() } catch { print("network: \(error)") }
      let elapsed = start.duration(to: clock.now)
      wall[index].append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      cpu[index].append(processCPUSeconds() - cpuStart)
    }
  }
  blackHole(checksum)
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  var table = Table("100 MB over loopback, every byte summed (higher is better; ratio to the delegate)", unit: "MB/s")
  var cpuTable = Table("CPU time of the process per 100 MB (lower is better)", unit: "ms")
  for (index, variant) in variants.enumerated() {
    table.add(variant.name, megabytes / median(wall[index]), baseline: index == 0)
    cpuTable.add(variant.name, median(cpu[index]) * 1000, baseline: index == 0)
  }
  table.print()
  cpuTable.print()

  session.finishTasksAndInvalidate()
}

/// User plus system CPU time of this process, in seconds.
func processCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Sums bytes, the work every variant does per byte.
@inline(never)
func sum(_ buffer: UnsafeRawBufferPointer) -> Int {
  var total = 0
  for byte in buffer { total &+= Int(byte) }
  return total
}

/// A thread-safe box for the benchmark closures.
///
/// `@unchecked Sendable`: `value` is read and written only under `lock`.
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

/// The baseline: a URLSession delegate written by hand, summing each chunk as it arrives.
func handWrittenDelegate(_ url: URL) async throws -> Int {
  try await withCheckedThrowingContinuation { continuation in
    let delegate = SummingDelegate(continuation)
    let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
    session.dataTask(with: url).resume()
    session.finishTasksAndInvalidate()
  }
}

/// `@unchecked Sendable`: `total` is touched only on the session's serial delegate queue.
final class SummingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  var total = 0
  let continuation: CheckedContinuation<Int, any Error>

  init(_ continuation: CheckedContinuation<Int, any Error>) { self.continuation = continuation }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    total &+= data.withUnsafeBytes { sum($0) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: total) }
  }
}
