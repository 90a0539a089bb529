import ClosureKit
import Dispatch
import Testing

/// What the "Common compiler errors" article says of the workaround that compiles: a
/// `MainActor.assumeIsolated` inside a `.queue` handler does not move the call to the main actor,
/// it stops the program.
@Suite struct CommonCompilerErrorsTests {
  @Test func mainActorAssumeIsolatedInAQueueHandlerStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let sent = Event<Int>()
      let queue = DispatchQueue(label: "assume-isolated")
      sent.addHandler(on: .queue(queue)) { _ in
        MainActor.assumeIsolated { _ = 0 }
      }
      sent.send(1)
      queue.sync {}  // waits for the handler, which stops the process first
    }
  }
}
