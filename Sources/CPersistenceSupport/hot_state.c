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
