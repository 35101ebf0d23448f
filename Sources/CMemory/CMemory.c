#include <stdlib.h>
#include <string.h>
#include "CMemory.h"
#ifdef __GLIBC__
#include <malloc.h>
#else
#define M_ARENA_MAX 0
#define M_TRIM_THRESHOLD 0
#endif

/// `mallopt(parameter, value)` unless the environment sets it already: `variable`, or `tunable` in
/// `GLIBC_TUNABLES` (the environment's setting wins). Returns 1 when set.
static int set_unless_configured(const char *variable, const char *tunable, int parameter, int value) {
#ifdef __GLIBC__
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (getenv(variable) || (tunables && strstr(tunables, tunable))) return 0;
    return mallopt(parameter, value);
#else
    (void)variable; (void)tunable; (void)parameter; (void)value;
    return 0;
#endif
}

int cmemory_limit_arenas(int count) {
    return set_unless_configured("MALLOC_ARENA_MAX", "glibc.malloc.arena_max", M_ARENA_MAX, count);
}

int cmemory_keep_freed_memory(int bytes) {
    return set_unless_configured("MALLOC_TRIM_THRESHOLD_", "glibc.malloc.trim_threshold", M_TRIM_THRESHOLD, bytes);
}
