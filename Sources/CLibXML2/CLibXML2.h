// The parts of the system libxml2 (pkg-config libxml-2.0) that ClosureKitFoundation's SAX driver
// uses on Linux: the push parser, the SAX2 handler struct and its default entity functions, the
// structured error record.
#include <libxml/xmlversion.h>
// libxml2 built with ICU declares ICU converters in encoding.h, whose <unicode/*.h> clash with the
// toolchain's own copy of ICU (Foundation's _FoundationICU) in one Clang instance. Only the layout
// of xmlCharEncodingHandler depends on it, a struct ClosureKit reaches by pointer only.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/entities.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>
