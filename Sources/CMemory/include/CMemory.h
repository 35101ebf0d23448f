#ifndef CMEMORY_H
#define CMEMORY_H
/// Caps the number of glibc malloc arenas (`mallopt(M_ARENA_MAX, count)`; glibc's `malloc.h` is not in
/// Swift's Glibc module) unless the environment sets it (`MALLOC_ARENA_MAX`, or `glibc.malloc.arena_max`
/// in `GLIBC_TUNABLES`). Call before other threads start; returns 1 when the cap was set.
int cmemory_limit_arenas(int count);
#endif
