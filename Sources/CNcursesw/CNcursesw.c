#include "CNcursesw.h"
WINDOW *cncurses_stdscr(void) { return stdscr; }
int cncurses_lines(void) { return LINES; }
int cncurses_cols(void) { return COLS; }
