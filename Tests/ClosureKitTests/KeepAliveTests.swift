import ClosureKit
import ClosureKitTestSupport
import Dispatch
import Testing

/// An adapter that a delegator holds weakly, as `XMLParser` holds its delegate.
private final class SelfRetainingAdapter: Sendable {
  let keepAlive = KeepAlive()
  func start() { keepAlive.retain(self) }
  func finalCallback() { keepAlive.release() }
}

@Suite struct KeepAliveTests {
  @Test func retainedObjectOutlivesItsLastOutsideReference() {
    var adapter: SelfRetainingAdapter? = SelfRetainingAdapter()
    weak let weakAdapter = adapter
    adapter!.start()
    adapter = nil
    #expect(weakAdapter != nil)
    #expect(weakAdapter?.keepAlive.isRetaining == true)
    weakAdapter?.finalCallback()
    #expect(weakAdapter == nil)
  }

  @Test func secondReleaseHasNoEffect() {
    let keepAlive = KeepAlive()
    let object = Tracked()
    keepAlive.retain(object)
    #expect(keepAlive.release())
    #expect(!keepAlive.release())
    #expect(!keepAlive.isRetaining)
  }

  @Test func releaseWithoutRetainHasNoEffect() {
    #expect(!KeepAlive().release())
  }

  @Test func concurrentReleasesReleaseExactlyOnce() {
    let keepAlive = KeepAlive()
    keepAlive.retain(Tracked())
    let released = Counter()
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      if keepAlive.release() { released.increment() }
    }
    #expect(released.value == 1)
  }

  @Test func canRetainAgainAfterRelease() {
    let keepAlive = KeepAlive()
    keepAlive.retain(Tracked())
    keepAlive.release()
    keepAlive.retain(Tracked())
    #expect(keepAlive.isRetaining)
    keepAlive.release()
  }

  @Test(.exitTest) func liveCountShowsAReleaseThatNeverCame() async {
    // In a child process, so that keep-alives of tests running in parallel do not count.
    await #expect(processExitsWith: .success) {
      let first = KeepAlive()
      let second = KeepAlive()
      precondition(KeepAlive.liveCount == 0)
      first.retain(Tracked())
      second.retain(Tracked())
      precondition(KeepAlive.liveCount == 2)
      first.release()
      first.release()
      precondition(KeepAlive.liveCount == 1)
      second.release()
      precondition(KeepAlive.liveCount == 0)
    }
  }

  @Test(.exitTest) func retainingTwiceIsAProgrammerErrorNamingTheArgument() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let keepAlive = KeepAlive()
      keepAlive.retain(Tracked())
      keepAlive.retain(Tracked())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("KeepAlive.retain(_:): the argument `object`"))
  }
}
