#ifndef CPROCESS_H
#define CPROCESS_H
/// Process-level calls Swift cannot make itself: Swift's Glibc module does not declare
/// pthread_setname_np, and a signal handler must be a C function.

/// Names the calling thread; a name longer than 15 bytes is cut there. Returns 0 on success.
int cprocess_name_current_thread(const char *name);

/// From now on SIGINT and SIGTERM each write one byte, the signal's number, to `fd` (a pipe's
/// non-blocking write end) instead of ending the process. With `second_exit_code` >= 0, a signal
/// after the first ends the process at once with that code (`_exit`: for a stop that hangs).
/// Returns 0, or -1 with errno set.
int cprocess_route_stop_signals(int fd, int second_exit_code);
#endif
