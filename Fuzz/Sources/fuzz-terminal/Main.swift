import CFuzzDriver

/// The executable's entry point as SwiftPM links it (`main` is an alias of `fuzz_terminal_main`):
/// hands the command line to libFuzzer's driver.
@_cdecl("fuzz_terminal_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTerminal(data, size) }
}
