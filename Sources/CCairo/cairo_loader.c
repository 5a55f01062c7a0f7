#include "CCairo.h"
#include "cairo_calls.h"

#include <CDynamicLibrary.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    RK_CAIRO_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX)
    RK_CAIRO_OWN_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX)
};
static const char *const names[] = {
    RK_CAIRO_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME)
    RK_CAIRO_OWN_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME)
};
static void *symbols[sizeof names / sizeof names[0]];

// libcairo needs fontconfig, FreeType and pixman, so its handle finds every symbol above.
static rk_library cairo = RK_LIBRARY("cairo", "libcairo.so.2", "RasterKit needs cairo 1.16 or later (Debian's libcairo2)",
                                     names, symbols);

const char *rk_cairo_load(void) { return rk_library_load(&cairo); }

// Every call needs the library: one that cannot be loaded ends the process with the reason
// (callers that can report it have called rk_cairo_load first).
static void require_cairo(void) {
    const char *message = rk_cairo_load();
    if (message) {
        fprintf(stderr, "RasterKit: %s\n", message);
        abort();
    }
}

// The loader's own calls: what RasterKit's records of library versions need from the libraries
// cairo brings (pixman, FreeType), which no Swift code calls.
RK_CAIRO_OWN_CALLS(RK_LIBRARY_OWN_CALL, RK_LIBRARY_OWN_VOID_CALL)

const char *rk_pixman_version_string(void) {
    return rk_cairo_load() ? "unavailable" : call_pixman_version_string();
}

void rk_freetype_version(int *major, int *minor, int *patch) {
    *major = *minor = *patch = -1;
    void *library = NULL;
    if (rk_cairo_load() || call_FT_Init_FreeType(&library) != 0) return;
    call_FT_Library_Version(library, major, minor, patch);
    call_FT_Done_FreeType(library);
}

// The calls, under cairo's and fontconfig's own names: each forwards to the bound function; the
// headers' declarations check the types.
#define RK_CALL(result, name, parameters, arguments)                               \
    result name parameters {                                                       \
        require_cairo();                                                           \
        return RK_LIBRARY_FUNCTION(symbols, result, name, parameters) arguments;   \
    }
#define RK_VOID_CALL(name, parameters, arguments)                                  \
    void name parameters {                                                         \
        require_cairo();                                                           \
        RK_LIBRARY_FUNCTION(symbols, void, name, parameters) arguments;            \
    }
RK_CAIRO_CALLS(RK_CALL, RK_VOID_CALL)
