// libcurl's receive buffers, kept apart from the malloc heap.
//
// libcurl (7.88) allocates each transfer's receive buffer (CURLOPT_BUFFERSIZE + 1 bytes: 100 KB here)
// when the transfer starts and frees it when it ends. From the heap, 64 transfers at a time spread
// 6.4 MB of buffers among the small allocations around them, and the pages of that span came to be
// touched: a 100,000-request run at --concurrency 64 peaked 6–9 MB higher than at 8. Here each such
// buffer is a slot of one reserved region, reused (last freed, first taken): a slot keeps only the
// pages a response actually filled, and taking one is a lock and a pop, no system call.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "CCurl.h"

#define SLOT_SIZE ((size_t)128 * 1024)
#define SLOT_COUNT 1024 // 128 MB of address space, reserved; memory only where touched

static char *region;
static size_t smallest; // requests of this size up to SLOT_SIZE take a slot
static int free_slots[SLOT_COUNT];
static int free_count;
static int never_used = 0; // slots from here on have not been handed out yet
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int owns(const void *p) {
    return region && (const char *)p >= region && (const char *)p < region + SLOT_SIZE * SLOT_COUNT;
}

static void *take_slot(void) {
    void *slot = NULL;
    pthread_mutex_lock(&lock);
    if (free_count > 0) slot = region + SLOT_SIZE * (size_t)free_slots[--free_count];
    else if (never_used < SLOT_COUNT) slot = region + SLOT_SIZE * (size_t)never_used++;
    pthread_mutex_unlock(&lock);
    return slot;
}

static void give_slot(void *p) {
    pthread_mutex_lock(&lock);
    free_slots[free_count++] = (int)(((char *)p - region) / SLOT_SIZE);
    pthread_mutex_unlock(&lock);
}

static void *pool_malloc(size_t size) {
    if (size >= smallest && size <= SLOT_SIZE) {
        void *slot = take_slot();
        if (slot) return slot;
    }
    return malloc(size);
}

static void pool_free(void *p) {
    if (owns(p)) give_slot(p);
    else free(p);
}

static void *pool_realloc(void *p, size_t size) {
    if (!p) return pool_malloc(size);
    if (!owns(p)) return realloc(p, size);
    if (size <= SLOT_SIZE) return p;
    void *grown = malloc(size);
    if (!grown) return NULL;
    memcpy(grown, p, SLOT_SIZE);
    give_slot(p);
    return grown;
}

static char *pool_strdup(const char *s) { return strdup(s); }
static void *pool_calloc(size_t count, size_t size) { return calloc(count, size); }

CURLcode ccurl_global_init_with_buffer_pool(long flags, size_t buffer_size) {
    if (buffer_size + 1 <= SLOT_SIZE) {
        void *reserved = mmap(NULL, SLOT_SIZE * SLOT_COUNT, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (reserved != MAP_FAILED) {
            region = reserved;
            smallest = buffer_size + 1;
            return curl_global_init_mem(flags, pool_malloc, pool_free, pool_realloc, pool_strdup, pool_calloc);
        }
    }
    return curl_global_init(flags);
}
