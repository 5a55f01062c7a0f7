#ifndef RASTERKIT_CDYNAMICLIBRARY_H
#define RASTERKIT_CDYNAMICLIBRARY_H

// The one way RasterKit reaches a C library it does not link (cairo, Pango, librsvg): found by
// one search, loaded with dlopen the first time it is needed, its symbols bound by name.
//
// Why they are not linked: see CairoLibrary.swift, PangoLibrary.swift and LibrsvgLibrary.swift.
// Each loader's calls are listed once, as X-macros R(result, name, parameters, arguments) and
// V(name, parameters, arguments) generated from the libraries' headers by
// Scripts/generate-loader-calls.py: <LIBRARY>_CALLS, the calls Swift makes, and
// <LIBRARY>_OWN_CALLS, those the loader's C makes. Each builds its symbol names, their indices and
// its forwarders from those lists with the macros below.

#include <limits.h>
#include <pthread.h>
#include <stddef.h>

// One library. Static storage, initialised with RK_LIBRARY(...); the fields below `count` are
// the loader's state.
typedef struct rk_library {
    // What messages call it ("cairo") and its file name ("libcairo.so.2").
    const char *display_name;
    const char *soname;
    // What a message about a missing or unusable library suggests.
    const char *requirement;
    // The symbols to bind, and where their addresses go (in the same order).
    const char *const *names;
    void **symbols;
    size_t count;

    pthread_mutex_t lock;
    int searched;   // atomic: the search has run
    int state;      // atomic: 0 not loaded yet, 1 loaded, -1 cannot be used
    char path[PATH_MAX];
    char error[PATH_MAX + 512];
} rk_library;

#define RK_LIBRARY(display, so, requirement_text, symbol_names, symbol_storage)                       \
    {.display_name = (display), .soname = (so), .requirement = (requirement_text),                    \
     .names = (symbol_names), .symbols = (symbol_storage),                                            \
     .count = sizeof(symbol_names) / sizeof((symbol_names)[0]), .lock = PTHREAD_MUTEX_INITIALIZER}

// The real path of the library's file in the folders the dynamic loader searches on Debian and
// most other distributions (LD_LIBRARY_PATH first, then /usr/local/lib, the multiarch folders
// and /lib64, /usr/lib64, /lib, /usr/lib), or NULL when none holds it. Searched once.
const char *rk_library_path(rk_library *library);

// Loads the library (the file found, else its soname through the dynamic loader) and binds
// every symbol, once. NULL, or a message saying why it cannot be used: the loader's error or
// the first symbol it lacks, with the library's requirement.
const char *rk_library_load(rk_library *library);

// Builders over a loader's X-macro list.
#define RK_LIBRARY_NAME(result, name, parameters, arguments) #name,
#define RK_LIBRARY_VOID_NAME(name, parameters, arguments) #name,
#define RK_LIBRARY_INDEX(result, name, parameters, arguments) rk_index_##name,
#define RK_LIBRARY_VOID_INDEX(name, parameters, arguments) rk_index_##name,
// The bound function `name` of `symbols`, with its own type.
#define RK_LIBRARY_FUNCTION(symbols, result, name, parameters) ((result(*) parameters)(symbols)[rk_index_##name])
// A loader's own calls (its list's _OWN_CALLS), as private `call_<name>` functions that forward to
// the function bound in the loader's `symbols`; the loader has been loaded before any is called.
#define RK_LIBRARY_OWN_CALL(result, name, parameters, arguments) \
    static result call_##name parameters { return RK_LIBRARY_FUNCTION(symbols, result, name, parameters) arguments; }
#define RK_LIBRARY_OWN_VOID_CALL(name, parameters, arguments) \
    static void call_##name parameters { RK_LIBRARY_FUNCTION(symbols, void, name, parameters) arguments; }

#endif
