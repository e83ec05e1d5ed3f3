#include "CPersistenceSupport.h"

_Thread_local int persistence_property_ordinal = 0;
