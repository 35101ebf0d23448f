#ifndef CTEXTWIDTH_H
#define CTEXTWIDTH_H
#include <stdint.h>
/// Display width of one Unicode scalar per the C library's wcwidth (-1 for non-printable).
int ctextwidth_wcwidth(uint32_t scalar);
/// Switches LC_CTYPE to a UTF-8 locale (the environment's, else C.UTF-8); returns 1 when UTF-8 is active.
int ctextwidth_ensure_utf8_locale(void);
#endif
