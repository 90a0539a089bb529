// Standalone (no ClosureKit): many short-lived threads, then many threads that race to the first
// use of a generic type, whose metadata cache the Swift runtime initialises under `swift_once`
// (on Linux a priority-inheritance futex owned by a thread id cached in thread-local storage).
// Run by run.sh under ThreadSanitizer; a run that does not finish in time is the hang.
import Glibc

struct Fresh<Value> { var value: Value }

@inline(never) func firstUse() -> Int {
  let boxes = (0..<4).map { Fresh(value: $0) }
  return boxes.reduce(0) { $0 + $1.value }
}

func startThread(_ body: @escaping () -> Void) -> pthread_t {
  final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
  var thread = pthread_t()
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  let result = pthread_create(&thread, nil, { context in
    Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
    return nil
  }, context)
  precondition(result == 0)
  return thread
}

let churn = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2000
let racers = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 200
// Threads that start and end (detached, as a thread-per-connection server's are), so that thread
// ids are reused while the racers start.
for _ in 0..<churn { pthread_detach(startThread {}) }
var threads: [pthread_t] = []
for _ in 0..<racers { threads.append(startThread { _ = firstUse() }) }
for thread in threads { pthread_join(thread, nil) }
print("finished")
