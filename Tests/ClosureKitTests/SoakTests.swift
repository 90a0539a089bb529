import ClosureKitTestSupport
import ClosureKitTesting
import Dispatch
import Testing

@testable import ClosureKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A seeded random soak: eight threads drive events, owners, bags, bound `Observed` boxes and
/// timers on a `ManualClock` at once, and check a model after every step.
///
/// `swift test` runs it for a second; `Scripts/soak.sh` for as long as it is asked
/// (`CLOSUREKIT_SOAK_SECONDS`), alone, and then also checks that the process's descriptors and
/// threads do not grow. A failure names its seed; `CLOSUREKIT_SOAK_SEED=<seed>` replays each
/// thread's sequence of operations (the interleaving of the threads is the machine's).
@Suite struct SoakTests {
  /// The seconds to run: `CLOSUREKIT_SOAK_SECONDS`, else 1.
  static var seconds: Double {
    getenv("CLOSUREKIT_SOAK_SECONDS").flatMap { Double(String(cString: $0)) } ?? 1
  }

  /// Whether the soak runs alone (under `Scripts/soak.sh`): only then are the process's
  /// descriptors and threads its own to count.
  static var runsAlone: Bool { getenv("CLOSUREKIT_SOAK_SECONDS") != nil }

  /// The seed: `CLOSUREKIT_SOAK_SEED`, else a new one.
  static var seed: UInt64 {
    getenv("CLOSUREKIT_SOAK_SEED").flatMap { UInt64(String(cString: $0)) } ?? UInt64.random(in: 1...UInt64.max)
  }

  static let threads = 8

  @Test(.heavy) func everySourceDrivenAtOnceFromEightThreadsKeepsItsRules() async {
    let seed = Self.seed
    let replay = "seed \(seed) (replay: CLOSUREKIT_SOAK_SEED=\(seed) Scripts/soak.sh)"
    print("SoakTests: \(Self.seconds) s, \(Self.threads) threads, \(replay)")
    // Dispatch opens its timer descriptors (an epoll instance, a timerfd) on the first deadline
    // it arms, which here is the watchdog's below; one armed and fired first keeps them out of the
    // count (under ThreadSanitizer, descriptors went 23 -> 25 without it).
    _ = await Expectation().wait(timeout: .milliseconds(1))
    let before = Self.runsAlone ? ProcessCounts.now() : nil
    let world = SoakWorld()
    let deadline = ContinuousClock.now + .seconds(Self.seconds)
    let done = Expectation(count: Self.threads)
    let steps = Locked(0)
    for index in 0..<Self.threads {
      onOwnThread {
        var driver = SoakDriver(thread: index, seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15, world: world)
        var count = 0
        while ContinuousClock.now < deadline, world.violations.values.isEmpty {
          driver.step()
          count += 1
        }
        driver.finish()
        steps.withLock { $0 += count }
        done.fulfill()
      }
    }
    // The watchdog: a thread that has not returned by then is deadlocked (or livelocked).
    let finished = await done.wait(timeout: .seconds(Self.seconds) + crossThreadDeadline)
    #expect(finished, "a soak thread did not return: deadlock or livelock; \(replay)")
    guard finished else { return }
    let violations = world.violations.values
    #expect(violations.isEmpty, "\(violations.prefix(5)); \(replay)")
    // Every timer that was not invalidated fires once when the clock passes its deadline.
    world.clock.advance(by: .seconds(3_600))
    #expect(world.timersOwed.allSatisfy { $0.calls == 1 }, "a timer did not fire exactly once; \(replay)")
    world.end()
    #expect(world.pairsAgree(), "a bound pair of boxes did not settle; \(replay)")
    // Everything a handler captured is released once its registration has ended.
    let liveProbes = await eventually { Probe.live.withLock { $0 } == 0 }
    #expect(liveProbes, "\(Probe.live.withLock { $0 }) probes still captured; \(replay)")
    if let before {
      let after = ProcessCounts.now()
      #expect(after.descriptors <= before.descriptors, "descriptors \(before.descriptors) -> \(after.descriptors)")
      // Dispatch may keep a few more workers; a leak grows with the steps.
      #expect(after.threads <= before.threads + 8, "threads \(before.threads) -> \(after.threads)")
    }
    print("SoakTests: \(steps.withLock { $0 }) steps, \(violations.count) violations, \(replay)")
    if let before {
      let after = ProcessCounts.now()
      print(
        "SoakTests: descriptors \(before.descriptors) -> \(after.descriptors),",
        "threads \(before.threads) -> \(after.threads)")
    }
  }
}

/// The open descriptors and the threads of this process (Linux's /proc; nil counts elsewhere).
struct ProcessCounts {
  let descriptors: Int
  let threads: Int

  static func now() -> ProcessCounts {
    ProcessCounts(descriptors: entries("/proc/self/fd"), threads: entries("/proc/self/task"))
  }

  static func entries(_ path: String) -> Int {
    guard let directory = opendir(path) else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
  }
}

/// What every soak thread shares: the sources, and the record of rule violations.
final class SoakWorld: Sendable {
  let events = (0..<4).map { _ in Event<SoakPayload>() }
  /// Two pairs of boxes, each bound both ways by handlers that copy `change.newValue`.
  let pairs = (0..<2).map { _ in (Observed(0, skipsEqualValues: true), Observed(0, skipsEqualValues: true)) }
  let bindings: [HandlerSubscription]
  let clock = ManualClock()
  let violations = Recorder<String>()
  /// A counter every send takes a ticket from before it starts. A probe's registration records
  /// the counter when it has ended (its cancel returned, its owner died): a call for a send whose
  /// ticket is higher started after that, which the lifetime rule forbids. A call for an earlier
  /// ticket may have started before, on another thread, and may finish.
  let tickets = Locked(0)
  private let owed = Locked<[Probe]>([])

  init() {
    var bindings: [HandlerSubscription] = []
    for (a, b) in pairs {
      bindings.append(a.observe { change in b.value = change.newValue! })
      bindings.append(b.observe { change in a.value = change.newValue! })
    }
    self.bindings = bindings
  }

  /// The probes of one-shot timers that were never invalidated: each must fire once.
  var timersOwed: [Probe] { owed.withLock { $0 } }
  func owe(_ probe: Probe) { owed.withLock { $0.append(probe) } }

  func pairsAgree() -> Bool { pairs.allSatisfy { $0.0.value == $0.1.value } }

  /// Ends the bindings (they capture the boxes) and forgets the owed timers.
  func end() {
    for binding in bindings { binding.cancel() }
    owed.withLock { $0 = [] }
  }
}

/// A payload: the sending thread, its send number, and the send's ticket (see ``SoakWorld/tickets``).
struct SoakPayload: Sendable {
  let thread: Int
  let send: Int
  let ticket: Int
}

/// What a handler captures: counts its calls for its own thread's sends, and reports a call for a
/// send that started after its registration ended (a cancel returned, its bag ended, its owner
/// died), and a second call for one send. Counted while alive, so that the soak can see every
/// capture released.
final class Probe: Sendable {
  static let live = Locked(0)

  let thread: Int
  let world: SoakWorld
  private let state = Locked<(endedAt: Int?, calls: Int, lastSend: Int)>((nil, 0, -1))

  init(thread: Int, world: SoakWorld) {
    self.thread = thread
    self.world = world
    Self.live.withLock { $0 += 1 }
  }

  deinit { Self.live.withLock { $0 -= 1 } }

  var calls: Int { state.withLock { $0.calls } }

  /// An event handler's call.
  func called(by payload: SoakPayload) {
    let ended = state.withLock { state -> Int? in state.endedAt }
    if let ended, payload.ticket > ended {
      world.violations.append("thread \(thread): a handler ran for a send that started after its registration ended")
    }
    guard payload.thread == thread else { return }
    let twice = state.withLock { state -> Bool in
      state.calls += 1
      defer { state.lastSend = payload.send }
      return state.lastSend == payload.send
    }
    if twice { world.violations.append("thread \(thread): a handler ran twice for one send") }
  }

  /// A timer handler's call.
  func fired() {
    state.withLock { $0.calls += 1 }
  }

  /// Records that the registration has ended: no call for a later send may start.
  func end() {
    let now = world.tickets.withLock { $0 }
    state.withLock { state in
      if state.endedAt == nil { state.endedAt = now }
    }
  }

  /// The calls so far, and whether the last one was for `send`.
  func sawSend(_ send: Int) -> Bool { state.withLock { $0.lastSend == send } }
}

/// An owner that ends its probe when it is deallocated.
final class SoakOwner: Sendable {
  let probe: Probe
  init(probe: Probe) { self.probe = probe }
  deinit { probe.end() }
}

/// One soak thread: its registrations, owners, bag and timers, and the model it checks.
struct SoakDriver {
  /// A live registration on an event.
  struct Registration {
    let event: Int
    let probe: Probe
    let token: HandlerSubscription
    /// The owner, for an owner-bound registration (held here, so it lives until dropped).
    var owner: SoakOwner?
    let inBag: Bool
  }

  let thread: Int
  let world: SoakWorld
  var random: SeededGenerator
  var registrations: [Registration] = []
  var bag = SubscriptionBag()
  var timers: [(ClosureTimer, Probe)] = []
  var sends = 0

  init(thread: Int, seed: UInt64, world: SoakWorld) {
    self.thread = thread
    self.world = world
    random = SeededGenerator(seed: seed)
  }

  func fail(_ message: String) { world.violations.append("thread \(thread): \(message)") }

  mutating func step() {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<15: register(owned: false)
    case 15..<22: register(owned: true)
    case 22..<34: cancelOne()
    case 34..<40: dropOwner()
    case 40..<43: endBag()
    case 43..<68: send()
    case 68..<80: write()
    case 80..<88: scheduleTimer()
    case 88..<93: invalidateTimer()
    default: world.clock.advance(by: .milliseconds(Int.random(in: 1...20, using: &random)))
    }
  }

  mutating func register(owned: Bool) {
    guard registrations.count < 64 else { return cancelOne() }
    let event = Int.random(in: 0..<world.events.count, using: &random)
    let probe = Probe(thread: thread, world: world)
    let inBag = Bool.random(using: &random)
    var owner: SoakOwner?
    let token: HandlerSubscription
    if owned {
      let made = SoakOwner(probe: probe)
      owner = made
      token = world.events[event].addHandler(owner: made) { owner, payload in owner.probe.called(by: payload) }
    } else {
      token = world.events[event].addHandler { payload in probe.called(by: payload) }
    }
    if inBag { bag.insert(token) }
    registrations.append(Registration(event: event, probe: probe, token: token, owner: owner, inBag: inBag))
  }

  mutating func cancelOne() {
    guard !registrations.isEmpty else { return }
    let removed = registrations.remove(at: Int.random(in: 0..<registrations.count, using: &random))
    removed.token.cancel()
    removed.probe.end()
    if !removed.token.isCancelled { fail("a cancelled token is not cancelled") }
  }

  mutating func dropOwner() {
    let owned = registrations.indices.filter { registrations[$0].owner != nil }
    guard let index = owned.randomElement(using: &random) else { return }
    // The owner's deinit ends the probe; a call running on another thread may hold the owner a
    // little longer, and no call starts after the deinit.
    registrations.remove(at: index)
  }

  mutating func endBag() {
    bag.cancelAll()
    for registration in registrations where registration.inBag { registration.probe.end() }
    registrations.removeAll { $0.inBag }
    if Bool.random(using: &random) { bag = SubscriptionBag() }  // the old one is deinitialised
  }

  mutating func send() {
    let event = Int.random(in: 0..<world.events.count, using: &random)
    sends += 1
    let expected = registrations.filter { $0.event == event }
    let before = expected.map(\.probe.calls)
    let ticket = world.tickets.withLock { tickets -> Int in
      tickets += 1
      return tickets
    }
    world.events[event].send(SoakPayload(thread: thread, send: sends, ticket: ticket))
    // Immediate delivery: each live handler has run exactly once for this send when it returns.
    for (registration, calls) in zip(expected, before) {
      if registration.probe.calls != calls + 1 || !registration.probe.sawSend(sends) {
        fail("a live handler ran \(registration.probe.calls - calls) times for one send")
      }
    }
  }

  mutating func write() {
    let pair = world.pairs[Int.random(in: 0..<world.pairs.count, using: &random)]
    let value = Int.random(in: 0..<1_000, using: &random)
    if Bool.random(using: &random) { pair.0.value = value } else { pair.1.value = value }
  }

  mutating func scheduleTimer() {
    guard timers.count < 16 else { return invalidateTimer() }
    let probe = Probe(thread: thread, world: world)
    let delay = Duration.milliseconds(Int.random(in: 1...50, using: &random))
    let timer = ClosureTimer.schedule(.after(delay), clock: world.clock) { _ in probe.fired() }
    timers.append((timer, probe))
  }

  mutating func invalidateTimer() {
    guard !timers.isEmpty else { return }
    let (timer, probe) = timers.remove(at: Int.random(in: 0..<timers.count, using: &random))
    timer.invalidate()
    // A one-shot fires at most once, and not at all once invalidated (a call already running on
    // the thread that advanced the clock may finish: it is counted before invalidate returns).
    let fired = probe.calls
    if fired > 1 { fail("a one-shot timer fired \(fired) times") }
  }

  /// Ends what this thread still holds; its timers that were not invalidated are owed one call.
  mutating func finish() {
    for registration in registrations {
      registration.token.cancel()
      registration.probe.end()
    }
    registrations = []
    bag.cancelAll()
    for (_, probe) in timers { world.owe(probe) }
    timers = []
  }
}
