#ifndef C_PERSISTENCE_SUPPORT_H
#define C_PERSISTENCE_SUPPORT_H

// A per-thread counter for numbering @Managed properties as an object is initialised (see ManagedPropertyOrdinal).
// A C thread-local is a few instructions; pthread keys cost an order of magnitude more on this hot path.
extern _Thread_local int persistence_property_ordinal;

static inline int persistence_next_property_ordinal(void) { return persistence_property_ordinal++; }
static inline void persistence_reset_property_ordinal(void) { persistence_property_ordinal = 0; }

#endif
