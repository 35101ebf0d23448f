#ifndef CMEMORY_H
#define CMEMORY_H
/// Caps the number of glibc malloc arenas (`mallopt(M_ARENA_MAX, count)`; glibc's `malloc.h` is not in
/// Swift's Glibc module) unless the environment sets it (`MALLOC_ARENA_MAX`, or `glibc.malloc.arena_max`
/// in `GLIBC_TUNABLES`). Call before other threads start; returns 1 when the cap was set.
int cmemory_limit_arenas(int count);

/// Keeps up to `bytes` of freed memory at the top of each malloc heap instead of handing it back to
/// the kernel (`mallopt(M_TRIM_THRESHOLD, bytes)`) unless the environment sets it
/// (`MALLOC_TRIM_THRESHOLD_`, or `glibc.malloc.trim_threshold` in `GLIBC_TUNABLES`). Returns 1 when set.
int cmemory_keep_freed_memory(int bytes);
#endif
