#include "CPangoLoader.h"

#include <CDynamicLibrary.h>

// Every call RasterKit makes (pango_calls.h, generated from Pango's, GObject's and HarfBuzz's
// headers) is forwarded under an `rk_` prefix, declared by CPangoLoader.h: no Pango header is a
// build dependency, and the prefix keeps these forwarders from interposing on the libraries' own
// calls of one another (GLib's g_object_unref above all).
enum { RK_PANGO_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX) };
static const char *const names[] = {RK_PANGO_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME)};
static void *symbols[sizeof names / sizeof names[0]];

// libpangocairo needs libpango, libpangoft2, GObject, GLib and HarfBuzz, so its handle finds
// every symbol above.
static rk_library pango = RK_LIBRARY("Pango", "libpangocairo-1.0.so.0",
                                     "text needs Pango 1.44 or later (Debian's libpangocairo-1.0-0)", names, symbols);

const char *rk_pango_load(void) { return rk_library_load(&pango); }

// The calls: each forwards to the bound function; the header's declarations check the types.
#define RK_CALL(result, name, parameters, arguments) \
    result rk_##name parameters { return RK_LIBRARY_FUNCTION(symbols, result, name, parameters) arguments; }
#define RK_VOID_CALL(name, parameters, arguments) \
    void rk_##name parameters { RK_LIBRARY_FUNCTION(symbols, void, name, parameters) arguments; }
RK_PANGO_CALLS(RK_CALL, RK_VOID_CALL)
