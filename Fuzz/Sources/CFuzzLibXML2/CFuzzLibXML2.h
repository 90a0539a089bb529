// libxml2's pull parser, for the fuzzer's oracle. (ICU off as in ClosureKit's own CLibXML2: its
// headers clash with the toolchain's copy of ICU.)
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>

#include <stddef.h>
#include <stdint.h>
// libFuzzer's driver (in the toolchain's libclang_rt.fuzzer, linked by -sanitize=fuzzer): SwiftPM
// names an executable's entry point `<module>_main`, which calls this with the fuzz function.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
