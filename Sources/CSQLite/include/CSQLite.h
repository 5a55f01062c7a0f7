#ifndef RASTERKIT_CSQLITE_H
#define RASTERKIT_CSQLITE_H

// SQLite for RasterKit's render store: the library's own header, and the one process-wide
// setting the `rasterkit` command makes before it opens a store (see
// RasterKitCLI/RasterKitCommand.swift). sqlite3_config is variadic, which Swift cannot call, so
// that one call is C.
#include <sqlite3.h>

// Turns off SQLite's memory statistics, which take one process-wide mutex on every allocation
// and free: a batch's workers looking up stored renders at once queued on it. Returns 0, or
// SQLite's error when it is too late (SQLite already in use in this process): nothing changes then.
int rk_sqlite_disable_memory_statistics(void);

#endif
