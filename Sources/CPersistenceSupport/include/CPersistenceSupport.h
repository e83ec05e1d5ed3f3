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

#endif
