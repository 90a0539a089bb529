#include <stddef.h>
#include <stdint.h>
// libFuzzer's driver (in the toolchain's libclang_rt.fuzzer, linked by -sanitize=fuzzer): SwiftPM
// names an executable's entry point `<module>_main`, which calls this with the fuzz function.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
