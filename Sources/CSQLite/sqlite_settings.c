#include "CSQLite.h"

int rk_sqlite_disable_memory_statistics(void) {
    int status = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return status == SQLITE_OK ? 0 : status;
}
