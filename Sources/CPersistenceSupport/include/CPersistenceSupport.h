#ifndef C_PERSISTENCE_SUPPORT_H
#define C_PERSISTENCE_SUPPORT_H

// A per-thread counter for numbering @Managed properties as an object is initialised (see ManagedPropertyOrdinal).
// A C thread-local is a few instructions; pthread keys cost an order of magnitude more on this hot path.
extern _Thread_local int persistence_property_ordinal;

static inline int persistence_next_property_ordinal(void) { return persistence_property_ordinal++; }
static inline void persistence_reset_property_ordinal(void) { persistence_property_ordinal = 0; }

// The current thread's stack of contexts running performAndWait blocks (see PerformingContexts): an unretained
// pointer, read on every performAndWait and queue check, where Foundation's thread dictionary costs a hashed lookup.
extern _Thread_local void *persistence_performing_contexts;

static inline void *persistence_get_performing_contexts(void) { return persistence_performing_contexts; }
static inline void persistence_set_performing_contexts(void *stack) { persistence_performing_contexts = stack; }

// Whether the concurrency debugger is on (ConcurrencyDebugging.isEnabled), read on every property access: a Swift
// static would cost a check of its lazy initialisation each time. Set from PERSISTENCE_CONCURRENCY_DEBUG=1 when the
// library loads. Relaxed atomic accesses: it is a switch, not a synchronisation.
extern int persistence_concurrency_debugging;

static inline int persistence_concurrency_debugging_enabled(void) {
    return __atomic_load_n(&persistence_concurrency_debugging, __ATOMIC_RELAXED);
}
static inline void persistence_set_concurrency_debugging(int enabled) {
    __atomic_store_n(&persistence_concurrency_debugging, enabled, __ATOMIC_RELAXED);
}

// PST_STRING_<operator>_<folding>(left, right), the SQL side of predicate string operators (see
// string_function.c): ASCII and Latin-1 text is answered in C for the operators searches use most; everything else
// calls `fallback` with `box`, the operator and the folding. `release` frees `box` when the function goes away.
// Returns an SQLite result code.
struct sqlite3;
struct sqlite3_context;
struct sqlite3_value;
typedef void (*persistence_string_fallback)(void *box, int operation, int folding, struct sqlite3_context *context,
                                            int count, struct sqlite3_value **values);
typedef void (*persistence_box_release)(void *box);
int persistence_create_string_function(struct sqlite3 *db, const char *name, int operation, int folding, void *box,
                                       persistence_string_fallback fallback, persistence_box_release release);

// Latin-1 folding tables for the C side, laid out as [4][256][PERSISTENCE_FOLD_WIDTH] bytes and [4][256] counts
// (index: the folding's raw value). Copied by the first call; later calls change nothing.
#define PERSISTENCE_FOLD_WIDTH 8
void persistence_set_folding_tables(const unsigned char *folded, const unsigned char *folded_count);

// The levels of Core Data's debug logs (see PersistenceDebugLog): the SQL log's, read before every statement runs
// and every value is bound (0 when off: one load and one branch), and the migration log's. Set from
// PERSISTENCE_SQL_DEBUG and PERSISTENCE_MIGRATION_DEBUG when the library loads; Swift reads the launch arguments
// (-com.apple.CoreData.SQLDebug N, -com.apple.CoreData.MigrationDebug N). Relaxed atomics: switches, as above.
extern int persistence_sql_debug;
extern int persistence_migration_debug;

static inline int persistence_sql_debug_level(void) { return __atomic_load_n(&persistence_sql_debug, __ATOMIC_RELAXED); }
static inline void persistence_set_sql_debug_level(int level) {
    __atomic_store_n(&persistence_sql_debug, level, __ATOMIC_RELAXED);
}
static inline int persistence_migration_debug_level(void) {
    return __atomic_load_n(&persistence_migration_debug, __ATOMIC_RELAXED);
}
static inline void persistence_set_migration_debug_level(int level) {
    __atomic_store_n(&persistence_migration_debug, level, __ATOMIC_RELAXED);
}

#endif
