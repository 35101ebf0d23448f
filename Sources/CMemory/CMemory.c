#include <malloc.h>
#include "CMemory.h"

int cmemory_limit_arenas(int count) { return mallopt(M_ARENA_MAX, count); }
