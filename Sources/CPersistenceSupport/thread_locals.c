#include "CPersistenceSupport.h"

// Per-thread state read on hot paths; see the header.
_Thread_local int persistence_property_ordinal = 0;
_Thread_local void *persistence_performing_contexts = 0;
