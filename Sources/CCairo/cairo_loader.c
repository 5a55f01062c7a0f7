#include "CCairo.h"
#include "cairo_calls.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// libcairo needs fontconfig, FreeType and pixman, so looking a name up in its handle (which
// searches what it depends on too) finds every call below.
static const char cairo_soname[] = "libcairo.so.2";

// The loaded functions, one pointer per call in cairo_calls.h.
#define RK_FIELD(result, name, parameters, arguments) result(*name) parameters;
#define RK_VOID_FIELD(name, parameters, arguments) void(*name) parameters;
static struct {
    RK_CAIRO_CALLS(RK_FIELD, RK_VOID_FIELD)
} cairo;

// Calls only the versions RasterKit records need, declared here rather than by their headers.
static struct {
    const char *(*pixman_version_string)(void);
    int (*init_freetype)(void **library);
    void (*library_version)(void *library, int *major, int *minor, int *patch);
    int (*done_freetype)(void *library);
} versions;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load_library(void) {
    void *library = dlopen(cairo_soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "cairo cannot be loaded: %s; install Debian's libcairo2",
                 reason ? reason : cairo_soname);
        return;
    }
    // Each pointer is looked up by name; the first name missing is kept for the message.
    const char *missing = NULL;
#define RK_LOAD_AS(pointer, name) \
    if (!(*(void **)&(pointer) = dlsym(library, name)) && !missing) missing = name;
#define RK_LOAD(result, name, parameters, arguments) RK_LOAD_AS(cairo.name, #name)
#define RK_VOID_LOAD(name, parameters, arguments) RK_LOAD_AS(cairo.name, #name)
    RK_CAIRO_CALLS(RK_LOAD, RK_VOID_LOAD)
    RK_LOAD_AS(versions.pixman_version_string, "pixman_version_string")
    RK_LOAD_AS(versions.init_freetype, "FT_Init_FreeType")
    RK_LOAD_AS(versions.library_version, "FT_Library_Version")
    RK_LOAD_AS(versions.done_freetype, "FT_Done_FreeType")
    if (missing) {
        snprintf(load_error, sizeof load_error, "cairo (%s) has no %s; %s", cairo_soname, missing,
                 "RasterKit needs cairo 1.16 or later (Debian's libcairo2)");
        return;
    }
    loaded = 1;
}

const char *rk_cairo_load(void) {
    pthread_once(&load_once, load_library);
    return loaded ? NULL : load_error;
}

// Every call needs the library: one that cannot be loaded ends the process with the reason
// (callers that can report it have called rk_cairo_load first).
static void require_cairo(void) {
    const char *message = rk_cairo_load();
    if (message) {
        fprintf(stderr, "RasterKit: %s\n", message);
        abort();
    }
}

const char *rk_pixman_version_string(void) {
    return rk_cairo_load() ? "unavailable" : versions.pixman_version_string();
}

void rk_freetype_version(int *major, int *minor, int *patch) {
    *major = *minor = *patch = -1;
    void *library = NULL;
    if (rk_cairo_load() || versions.init_freetype(&library) != 0) return;
    versions.library_version(library, major, minor, patch);
    versions.done_freetype(library);
}

// The calls: each forwards to the loaded function; the headers' declarations check the types.
#define RK_CALL(result, name, parameters, arguments) \
    result name parameters {                         \
        require_cairo();                             \
        return cairo.name arguments;                 \
    }
#define RK_VOID_CALL(name, parameters, arguments) \
    void name parameters {                        \
        require_cairo();                          \
        cairo.name arguments;                     \
    }
RK_CAIRO_CALLS(RK_CALL, RK_VOID_CALL)
