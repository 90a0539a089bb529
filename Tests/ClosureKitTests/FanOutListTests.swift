import ClosureKitTestSupport
import Testing

@testable import ClosureKit

/// `FanOutList`, the registry in front of one outside observer: the observer is detached exactly
/// once, with the last handler; a closed list refuses registrations; the state's invariants hold
/// after every step.
@Suite struct FanOutListTests {
  /// The payload of these tests.
  final class Number: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  /// The payload's number, cast back as `ClosureKitFoundation` casts its notifications.
  @Sendable func number(_ payload: FanOutPayload) -> Int { (payload as? Number)?.value ?? -1 }

  let site = RegistrationSite(fileID: #fileID, line: #line)

  @Test func theLastRemovalDetachesOnceAndClosesTheList() {
    let list = FanOutList()
    let detached = Recorder<String>()
    let seen = Recorder<Int>()
    let first = list.add(
      once: false, on: .immediate, site: site, SourceHandler<NoOwner, FanOutPayload>.plain { seen.append(number($0)) })
    let owner = Tracked()
    let second = list.add(
      once: false, on: .immediate, site: site, .owned(owner) { _, payload in seen.append(number(payload) * 10) })
    #expect(list.attach { detached.append("detached") })
    #expect(list.verifyInvariants())
    list.forward(Number(1))
    #expect(seen.values == [1, 10])
    first?.cancel()
    #expect(detached.values.isEmpty && !list.isClosed)
    second?.cancel()
    #expect(detached.values == ["detached"])
    #expect(list.isClosed && list.verifyInvariants())
    second?.cancel()
    #expect(detached.values == ["detached"], "detached once")
    let late = list.add(
      once: false, on: .immediate, site: site, SourceHandler<NoOwner, FanOutPayload>.plain { seen.append(number($0)) })
    #expect(late == nil, "a closed list refuses registrations")
    list.forward(Number(2))
    #expect(seen.values == [1, 10])
  }

  @Test func aListEmptiedBeforeItsObserverIsAttachedRefusesTheAttachment() {
    let list = FanOutList()
    let token = list.add(once: false, on: .immediate, site: site, SourceHandler<NoOwner, FanOutPayload>.plain { _ in })
    token?.cancel()
    #expect(list.isClosed)
    let detached = Recorder<String>()
    #expect(!list.attach { detached.append("detached") }, "the caller detaches the observer itself")
    #expect(detached.values.isEmpty)
    #expect(list.verifyInvariants())
  }

  @Test func aOneShotAndAnOwnerFoundGoneEmptyTheListAtASend() {
    let list = FanOutList()
    let detached = Recorder<String>()
    var owner: Tracked? = Tracked()
    _ = list.add(once: true, on: .immediate, site: site, SourceHandler<NoOwner, FanOutPayload>.plain { _ in })
    _ = list.add(once: false, on: .immediate, site: site, .owned(owner!) { _, _ in })
    #expect(list.attach { detached.append("detached") })
    owner = nil
    list.forward(Number(1))
    #expect(detached.values == ["detached"])
    #expect(list.isClosed && list.verifyInvariants())
  }

  @Test func theUpstreamEndingClosesTheListWithoutDetaching() {
    let list = FanOutList()
    let detached = Recorder<String>()
    weak var weakCapture: Tracked?
    var token: HandlerSubscription?
    do {
      let capture = Tracked()
      weakCapture = capture
      token = list.add(
        once: false, on: .immediate, site: site, SourceHandler<NoOwner, FanOutPayload>.plain { _ in _ = capture })
    }
    #expect(list.attach { detached.append("detached") })
    list.upstreamEnded()
    #expect(weakCapture == nil, "the handlers are released")
    #expect(token?.isCancelled == true)
    token?.cancel()
    #expect(detached.values.isEmpty, "nothing to detach from")
    #expect(list.isClosed && list.verifyInvariants())
  }
}
