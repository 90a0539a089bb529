#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's open descriptors and threads, from /proc on Linux (nil elsewhere).
struct ProcessCensus: Equatable, CustomStringConvertible {
  let descriptors: Int
  let threads: Int

  static func take() -> ProcessCensus? {
    guard let descriptors = count("/proc/self/fd"), let threads = count("/proc/self/task") else { return nil }
    return ProcessCensus(descriptors: descriptors, threads: threads)
  }

  private static func count(_ path: String) -> Int? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var entries = 0
    while readdir(directory) != nil { entries += 1 }
    return entries - 2  // "." and ".."
  }

  var description: String { "\(descriptors) descriptors, \(threads) threads" }
}
