#include "CPersistenceSupport.h"

#include <stdlib.h>
#include <string.h>

// State read on hot paths (see the header): per thread, then process-wide.
_Thread_local int persistence_property_ordinal = 0;
_Thread_local void *persistence_performing_contexts = 0;

int persistence_concurrency_debugging = 0;

__attribute__((constructor)) static void persistence_read_environment(void) {
    const char *value = getenv("PERSISTENCE_CONCURRENCY_DEBUG");
    persistence_concurrency_debugging = value != 0 && strcmp(value, "1") == 0;
}

int persistence_sql_debug = 0;
int persistence_migration_debug = 0;

// A level from the environment: a whole number from 0 to 4, anything else 0.
static int persistence_debug_level(const char *name) {
    const char *value = getenv(name);
    if (value == 0 || value[0] < '0' || value[0] > '4' || value[1] != 0) return 0;
    return value[0] - '0';
}

__attribute__((constructor)) static void persistence_read_debug_log_environment(void) {
    persistence_sql_debug = persistence_debug_level("PERSISTENCE_SQL_DEBUG");
    persistence_migration_debug = persistence_debug_level("PERSISTENCE_MIGRATION_DEBUG");
}
