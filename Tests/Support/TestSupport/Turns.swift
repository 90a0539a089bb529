/// Who may run now, among the tests that must not all run at once: heavy tests one at a time,
/// and network tests never while an exit test's child process lives.
///
/// Waiting suspends the task; it blocks no thread. Every test takes the heavy turn (if any)
/// before its room, never the other way round, so no two tests wait for each other.
actor Turns {
  static let shared = Turns()

  /// The kinds of test that may share the machine with their own kind but not with each other.
  enum Room: Equatable {
    /// Tests that use `URLSession`, whose libcurl sockets are not close-on-exec.
    case network
    /// Exit tests, whose child processes inherit every such socket open when they start.
    case childProcess
  }

  private var isHeavyBusy = false
  private var heavyWaiting: [CheckedContinuation<Void, Never>] = []
  private var occupant: Room?
  private var occupancy = 0
  private var roomWaiting: [(room: Room, resume: CheckedContinuation<Void, Never>)] = []

  func beginHeavy() async {
    guard isHeavyBusy else {
      isHeavyBusy = true
      return
    }
    await withCheckedContinuation { heavyWaiting.append($0) }
  }

  func endHeavy() {
    if heavyWaiting.isEmpty {
      isHeavyBusy = false
    } else {
      heavyWaiting.removeFirst().resume()
    }
  }

  /// Enters `room` at once if it is free or already held by its kind and nobody waits; otherwise
  /// after everyone queued before.
  func enter(_ room: Room) async {
    if roomWaiting.isEmpty && (occupant == nil || occupant == room) {
      occupant = room
      occupancy += 1
      return
    }
    await withCheckedContinuation { roomWaiting.append((room, $0)) }
  }

  /// Leaves the room; the last to leave lets in the first waiter and every waiter of its kind
  /// queued right behind it.
  func leave() {
    precondition(occupancy > 0, "leave() without enter()")
    occupancy -= 1
    guard occupancy == 0 else { return }
    occupant = roomWaiting.first?.room
    while let next = roomWaiting.first, next.room == occupant {
      roomWaiting.removeFirst()
      occupancy += 1
      next.resume.resume()
    }
  }

  /// Runs `body` in the turns it needs: the heavy turn first, then the room.
  nonisolated func run(
    heavy: Bool,
    room: Room?,
    _ body: @Sendable () async throws -> Void
  ) async throws {
    if heavy { await beginHeavy() }
    if let room { await enter(room) }
    do {
      try await body()
    } catch {
      if room != nil { await leave() }
      if heavy { await endHeavy() }
      throw error
    }
    if room != nil { await leave() }
    if heavy { await endHeavy() }
  }
}
