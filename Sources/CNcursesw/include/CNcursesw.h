#ifndef CNCURSESW_H
#define CNCURSESW_H
// The wide-character API is only declared when this comes first.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>

WINDOW *cncurses_stdscr(void);
int cncurses_lines(void);
int cncurses_cols(void);
#endif
