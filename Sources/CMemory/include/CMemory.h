#ifndef CMEMORY_H
#define CMEMORY_H
/// Caps the number of glibc malloc arenas (`mallopt(M_ARENA_MAX, count)`; glibc's `malloc.h` is not in
/// Swift's Glibc module). Call before other threads start; returns 1 on success.
int cmemory_limit_arenas(int count);
#endif
