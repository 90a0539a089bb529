import ClosureKitTestSupport
import ClosureKitTesting
import Testing

@testable import ClosureKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A thread's identity (``currentThreadID``) is a token that is never reused.
@Suite struct ThreadTokenTests {
  /// What a thread reports about itself.
  struct Seen: Sendable {
    let token: Int
    let again: Int
    let handle: UInt
  }

  /// Runs on a new thread and waits for it to end: its token (twice) and its `pthread_self()`.
  func seenOnNewThread() async -> Seen {
    let seen = Slot<Seen>()
    await onNewThread {
      #if canImport(Darwin)
        let handle = UInt(bitPattern: pthread_self())
      #else
        let handle = UInt(pthread_self())
      #endif
      seen.value = Seen(token: currentThreadID, again: currentThreadID, handle: handle)
    }
    return seen.value!
  }

  /// Threads started one after another, each ended before the next starts, all have different
  /// tokens, although the C library gives many of them the same `pthread_self()` (glibc reuses
  /// a joined thread's control block for the next thread: the reuse that made a hop take a
  /// dead writer's write for its own).
  @Test func aThreadStartedAfterAnotherEndedHasANewToken() async {
    var seen: [Seen] = []
    for _ in 0..<50 { seen.append(await seenOnNewThread()) }
    #expect(Set(seen.map(\.token)).count == seen.count)
    #expect(seen.allSatisfy { $0.token == $0.again })
    // Not a requirement, a record of why the token exists: the handles repeat, the tokens do not.
    let handles = Set(seen.map(\.handle)).count
    print("ThreadTokenTests: 50 threads had \(handles) distinct pthread_self() values and 50 tokens")
  }

  /// A token is positive, and a later thread's is larger (tokens are counted, never reused).
  @Test func aTokenIsPositiveAndCounted() async {
    let first = await seenOnNewThread().token
    let second = await seenOnNewThread().token
    #expect(first > 0)
    #expect(second > first)
  }

  /// Threads asking for their first token at the same time get different ones.
  @Test func threadsAskingAtOnceGetDifferentTokens() async {
    let tokens = Recorder<Int>()
    let done = Expectation(count: 8)
    for _ in 0..<8 {
      onOwnThread {
        for _ in 0..<4 { onNewThread { tokens.append(currentThreadID) } }
        done.fulfill()
      }
    }
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(tokens.values.count == 32)
    #expect(Set(tokens.values).count == 32)
  }
}
