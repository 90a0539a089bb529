/// Stops the program with `message`, in every build configuration.
///
/// `precondition(_:_:)` and `preconditionFailure(_:)` keep their trap under `-O` but drop their
/// message, so a release build would stop with a bare "Illegal instruction". Every check of a
/// caller's argument in ClosureKit is written `if !condition { failPrecondition("…") }` instead:
/// the message names the function and the argument, and the condition costs what it did before.
@usableFromInline @inline(never)
package func failPrecondition(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError(message, file: file, line: line)
}
