#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "CProcess.h"

int cprocess_name_current_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
#ifdef __APPLE__
    return pthread_setname_np(cut);
#else
    return pthread_setname_np(pthread_self(), cut);
#endif
}

static volatile sig_atomic_t stop_fd = -1;
static volatile sig_atomic_t stop_second_exit_code = -1;
static volatile sig_atomic_t stop_signals_seen = 0;

static void on_stop_signal(int number) {
    if (stop_signals_seen++ > 0 && stop_second_exit_code >= 0) _exit(stop_second_exit_code);
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    ssize_t written = write(stop_fd, &byte, 1);
    (void)written; // a full pipe already holds a byte that wakes the reader
    errno = saved;
}

int cprocess_route_stop_signals(int fd, int second_exit_code) {
    stop_fd = fd;
    stop_second_exit_code = second_exit_code;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    return sigaction(SIGTERM, &action, NULL);
}
