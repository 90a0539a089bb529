import Testing

@testable import ClosureKitFoundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Issue 28: descriptors ClosureKit opens are close-on-exec, so a child process (an exit test, a
/// program the caller starts) never inherits them.
@Suite struct TerminalDescriptorTests {
  @Test func theTerminalPresentersPipeIsCloseOnExec() throws {
    let pipe = try #require(TerminalCalls.makePipe())
    defer {
      TerminalCalls.close(pipe.read)
      TerminalCalls.close(pipe.write)
    }
    for descriptor in [pipe.read, pipe.write] {
      let flags = fcntl(descriptor, F_GETFD)
      #expect(flags >= 0)
      #expect(flags & FD_CLOEXEC != 0)
    }
  }
}
