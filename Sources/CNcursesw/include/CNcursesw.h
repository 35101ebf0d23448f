#ifndef CNCURSESW_H
#define CNCURSESW_H
// The wide-character API is only declared when this comes first.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <wchar.h>

// Globals rejected by Swift 6 strict concurrency, as functions.
WINDOW *cncurses_stdscr(void);
int cncurses_lines(void);
int cncurses_cols(void);
int cncurses_colors(void);
int cncurses_color_pairs(void);
void cncurses_getmaxyx(WINDOW *win, int *rows, int *cols);

// Attribute macros.
attr_t cncurses_a_normal(void);
attr_t cncurses_a_bold(void);
attr_t cncurses_a_dim(void);
attr_t cncurses_a_reverse(void);
attr_t cncurses_a_underline(void);

// Key codes (KEY_* macros). cncurses_key_f(n) is KEY_F(n).
int cncurses_key_code_yes(void);
int cncurses_key_up(void);
int cncurses_key_down(void);
int cncurses_key_left(void);
int cncurses_key_right(void);
int cncurses_key_ppage(void);
int cncurses_key_npage(void);
int cncurses_key_home(void);
int cncurses_key_end(void);
int cncurses_key_enter(void);
int cncurses_key_backspace(void);
int cncurses_key_dc(void);
int cncurses_key_btab(void);
int cncurses_key_resize(void);
int cncurses_key_f(int n);

/// Starts curses: UTF-8 locale (the environment's, else C.UTF-8), initscr, cbreak, noecho, keypad,
/// non-blocking input, short ESC delay, hidden cursor, colours with the default pair when available.
/// Saves the tty settings and the terminal's exit sequences first. Returns 1 when the locale is UTF-8,
/// 0 when it is not, -1 when the terminal cannot be used (unknown TERM, not a terminal).
/// Calling it again after cncurses_end resumes curses mode.
int cncurses_start(int use_colors, int use_mouse);
/// KEY_MOUSE, and the last mouse event: x, y and kind (1 click, 2 double-click, 3 wheel up, 4 wheel down, 0 other); -1 when none.
int cncurses_key_mouse(void);
int cncurses_get_mouse(int *x, int *y, int *kind);
/// Ends curses once (guarded by a flag and isendwin) and restores the saved tty settings. Safe to call twice.
void cncurses_end(void);
/// Registers cncurses_end with atexit (once).
void cncurses_install_atexit(void);

/// Reads one key; returns OK, KEY_CODE_YES or ERR like wget_wch, with the code in *code.
int cncurses_get_key(unsigned int *code);
/// Sets attributes and colour pair, then writes n wide characters at (y, x). Errors are ignored.
void cncurses_put_run(int y, int x, const wchar_t *text, int n, attr_t attrs, int pair);
/// Defines colour pair `pair` (fg/bg: -1 for default). Returns OK or ERR.
int cncurses_init_pair(int pair, int fg, int bg);
/// Reads the window size from the tty and resizes curses to it (at least 1x1).
void cncurses_resize_from_tty(void);

// Signal self-pipe: handlers write the signal number as one byte; 0 bytes are wake-ups.
/// Creates the pipe (once); returns its read end, non-blocking, or -1.
int cncurses_signal_pipe_read_fd(void);
/// Writes one wake-up byte (0) to the pipe; async-signal-safe, callable from any thread.
void cncurses_signal_pipe_wake(void);
/// Routes `signo` to the pipe (SA_RESTART). Returns 0 or -1.
int cncurses_signal_route(int signo);
/// Restores the disposition `signo` had before cncurses_signal_route.
void cncurses_signal_unroute(int signo);
/// On SEGV, BUS, ILL, ABRT, FPE: restore the tty (exit sequences + saved termios), then re-raise
/// with the previous handler (so a backtrace prints on a sane terminal).
void cncurses_install_crash_handlers(void);
void cncurses_uninstall_crash_handlers(void);
#endif
