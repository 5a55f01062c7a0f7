#include "CCairo.h"
#include "cairo_calls.h"

#include <CDynamicLibrary.h>
#include <stdio.h>
#include <stdlib.h>

// Beside the calls: what RasterKit's records of library versions need from the libraries cairo
// brings (pixman, FreeType), declared here rather than by their headers.
#define RK_CAIRO_VERSION_CALLS(R, V)                                                       \
    R(const char *, pixman_version_string, (void), ())                                     \
    R(int, FT_Init_FreeType, (void **library), (library))                                  \
    V(FT_Library_Version, (void *library, int *major, int *minor, int *patch), (library, major, minor, patch)) \
    R(int, FT_Done_FreeType, (void *library), (library))

enum {
    RK_CAIRO_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX)
    RK_CAIRO_VERSION_CALLS(RK_LIBRARY_INDEX, RK_LIBRARY_VOID_INDEX)
};
static const char *const names[] = {
    RK_CAIRO_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME)
    RK_CAIRO_VERSION_CALLS(RK_LIBRARY_NAME, RK_LIBRARY_VOID_NAME)
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

#define RK_VERSION_FUNCTION(result, name, parameters) RK_LIBRARY_FUNCTION(symbols, result, name, parameters)

const char *rk_pixman_version_string(void) {
    return rk_cairo_load() ? "unavailable" : RK_VERSION_FUNCTION(const char *, pixman_version_string, (void))();
}

void rk_freetype_version(int *major, int *minor, int *patch) {
    *major = *minor = *patch = -1;
    void *library = NULL;
    if (rk_cairo_load() || RK_VERSION_FUNCTION(int, FT_Init_FreeType, (void **))(&library) != 0) return;
    RK_VERSION_FUNCTION(void, FT_Library_Version, (void *, int *, int *, int *))(library, major, minor, patch);
    RK_VERSION_FUNCTION(int, FT_Done_FreeType, (void *))(library);
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
