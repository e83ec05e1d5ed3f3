#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import; the store binds text and blobs with it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
