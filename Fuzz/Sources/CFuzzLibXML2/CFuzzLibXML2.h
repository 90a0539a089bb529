// libxml2's pull parser, for the fuzzer's oracle. (ICU off as in ClosureKit's own CLibXML2: its
// headers clash with the toolchain's copy of ICU.)
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>

