#include <stdlib.h>
#include <string.h>
#include "CMemory.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif

int cmemory_limit_arenas(int count) {
#ifdef __GLIBC__
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (getenv("MALLOC_ARENA_MAX") || (tunables && strstr(tunables, "glibc.malloc.arena_max"))) return 0;
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}

int cmemory_keep_freed_memory(int bytes) {
#ifdef __GLIBC__
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (getenv("MALLOC_TRIM_THRESHOLD_") || (tunables && strstr(tunables, "glibc.malloc.trim_threshold"))) return 0;
    return mallopt(M_TRIM_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}
