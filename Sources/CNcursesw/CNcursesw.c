#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNcursesw.h"
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <stdlib.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <term.h>

WINDOW *cncurses_stdscr(void) { return stdscr; }
int cncurses_lines(void) { return LINES; }
int cncurses_cols(void) { return COLS; }
int cncurses_colors(void) { return COLORS; }
int cncurses_color_pairs(void) { return COLOR_PAIRS; }
void cncurses_getmaxyx(WINDOW *win, int *rows, int *cols) { int r, c; getmaxyx(win, r, c); *rows = r; *cols = c; }

attr_t cncurses_a_normal(void) { return A_NORMAL; }
attr_t cncurses_a_bold(void) { return A_BOLD; }
attr_t cncurses_a_dim(void) { return A_DIM; }
attr_t cncurses_a_reverse(void) { return A_REVERSE; }
attr_t cncurses_a_underline(void) { return A_UNDERLINE; }

int cncurses_key_code_yes(void) { return KEY_CODE_YES; }
int cncurses_key_up(void) { return KEY_UP; }
int cncurses_key_down(void) { return KEY_DOWN; }
int cncurses_key_left(void) { return KEY_LEFT; }
int cncurses_key_right(void) { return KEY_RIGHT; }
int cncurses_key_ppage(void) { return KEY_PPAGE; }
int cncurses_key_npage(void) { return KEY_NPAGE; }
int cncurses_key_home(void) { return KEY_HOME; }
int cncurses_key_end(void) { return KEY_END; }
int cncurses_key_enter(void) { return KEY_ENTER; }
int cncurses_key_backspace(void) { return KEY_BACKSPACE; }
int cncurses_key_dc(void) { return KEY_DC; }
int cncurses_key_btab(void) { return KEY_BTAB; }
int cncurses_key_resize(void) { return KEY_RESIZE; }
int cncurses_key_f(int n) { return KEY_F(n); }

// ---- tty state, saved before curses starts, restored on every exit path ----

static struct termios saved_termios;
static volatile sig_atomic_t have_termios = 0;
static volatile sig_atomic_t curses_active = 0;
// Exit sequences (rmcup, cnorm, sgr0) captured at start so a signal handler can write them with write(2).
static char exit_sequences[256];
static volatile sig_atomic_t exit_sequences_len = 0;

static void append_raw(const char *seq) {
    size_t len = strlen(seq);
    size_t used = (size_t)exit_sequences_len;
    if (used + len >= sizeof exit_sequences) return;
    memcpy(exit_sequences + used, seq, len);
    exit_sequences_len = (sig_atomic_t)(used + len);
}

static void append_cap(const char *name) {
    char *cap = tigetstr((char *)name);
    if (cap == NULL || cap == (char *)-1) return;
    append_raw(cap);
}

static void write_all(const char *seq) {
    size_t len = strlen(seq), done = 0;
    while (done < len) {
        ssize_t n = write(STDOUT_FILENO, seq + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += (size_t)n;
    }
}

// Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~, so a paste is text, never keys.
static const char *paste_on = "\033[?2004h";
static const char *paste_off = "\033[?2004l";
static int mouse_enabled = 0;

static int locale_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

int cncurses_start(int use_colors, int use_mouse) {
    setlocale(LC_ALL, "");
    int utf8 = locale_is_utf8();
    if (!utf8 && setlocale(LC_CTYPE, "C.UTF-8") && locale_is_utf8()) utf8 = 1;
    if (tcgetattr(STDIN_FILENO, &saved_termios) == 0) have_termios = 1;
    static SCREEN *screen = NULL;
    if (screen == NULL) {
        // newterm, unlike initscr, reports an unusable terminal instead of exiting the process.
        screen = newterm(NULL, stdout, stdin);
        if (screen == NULL) return -1;
        set_term(screen);
    } else {
        // A later run after cncurses_end: resume curses mode on the same screen.
        reset_prog_mode();
        refresh();
    }
    curses_active = 1;
    exit_sequences_len = 0;
    append_cap("sgr0");
    append_cap("cnorm");
    append_cap("rmcup");
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    leaveok(stdscr, FALSE);
    if (use_colors && has_colors()) {
        start_color();
        use_default_colors();
    }
    fflush(stdout);
    write_all(paste_on);
    append_raw(paste_off);
    mouse_enabled = use_mouse;
    if (use_mouse) {
        mouseinterval(250);
        mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        append_raw("\033[?1000l\033[?1002l\033[?1006l"); // mouse reporting off, should a crash skip endwin
    }
    return utf8;
}

int cncurses_key_mouse(void) { return KEY_MOUSE; }

int cncurses_get_mouse(int *x, int *y, int *kind) {
    MEVENT event;
    if (getmouse(&event) != OK) return -1;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON1_DOUBLE_CLICKED) *kind = 2;
    else if (event.bstate & BUTTON1_CLICKED) *kind = 1;
    else if (event.bstate & BUTTON4_PRESSED) *kind = 3;
#ifdef BUTTON5_PRESSED
    else if (event.bstate & BUTTON5_PRESSED) *kind = 4;
#endif
    else *kind = 0;
    return 0;
}

static void restore_termios(void) {
    if (have_termios) tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios);
}

void cncurses_end(void) {
    if (!curses_active) return;
    curses_active = 0;
    write_all(paste_off);
    if (mouse_enabled) mousemask(0, NULL);
    if (!isendwin()) {
        curs_set(1);
        endwin();
    }
    restore_termios();
}

static void atexit_end(void) { cncurses_end(); }

void cncurses_install_atexit(void) {
    static int installed = 0;
    if (!installed) { installed = 1; atexit(atexit_end); }
}

int cncurses_get_key(unsigned int *code) {
    wint_t wc = 0;
    int rc = wget_wch(stdscr, &wc);
    *code = (unsigned int)wc;
    return rc;
}

void cncurses_put_run(int y, int x, const wchar_t *text, int n, attr_t attrs, int pair) {
    wattr_set(stdscr, attrs, (short)pair, NULL);
    (void)mvwaddnwstr(stdscr, y, x, text, n);
}

int cncurses_init_pair(int pair, int fg, int bg) { return init_pair((short)pair, (short)fg, (short)bg); }

void cncurses_resize_from_tty(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 || ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0) {
        int rows = ws.ws_row > 0 ? ws.ws_row : 1;
        int cols = ws.ws_col > 0 ? ws.ws_col : 1;
        resizeterm(rows, cols);
    }
}

// ---- signal self-pipe ----

static int pipe_fds[2] = {-1, -1};
static struct sigaction previous_actions[65];
static unsigned char routed[65];

int cncurses_signal_pipe_read_fd(void) {
    if (pipe_fds[0] < 0) {
        int fds[2];
        if (pipe(fds) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
            fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        }
        pipe_fds[1] = fds[1];
        pipe_fds[0] = fds[0];
    }
    return pipe_fds[0];
}

static void write_byte(unsigned char byte) {
    int saved = errno;
    if (pipe_fds[1] >= 0) { ssize_t r = write(pipe_fds[1], &byte, 1); (void)r; }
    errno = saved;
}

void cncurses_signal_pipe_wake(void) { write_byte(0); }

static void route_handler(int signo) { write_byte((unsigned char)signo); }

int cncurses_signal_route(int signo) {
    if (signo <= 0 || signo >= 65 || cncurses_signal_pipe_read_fd() < 0) return -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = route_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(signo, &sa, routed[signo] ? NULL : &previous_actions[signo]) != 0) return -1;
    routed[signo] = 1;
    return 0;
}

void cncurses_signal_unroute(int signo) {
    if (signo <= 0 || signo >= 65 || !routed[signo]) return;
    sigaction(signo, &previous_actions[signo], NULL);
    routed[signo] = 0;
}

// ---- crash signals ----

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE};
static struct sigaction previous_crash_actions[5];
static int crash_installed = 0;

static void crash_handler(int signo) {
    // Only async-signal-safe calls: write(2), tcsetattr, sigaction, raise.
    if (curses_active && exit_sequences_len > 0) {
        ssize_t r = write(STDOUT_FILENO, exit_sequences, (size_t)exit_sequences_len); (void)r;
    }
    if (have_termios) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    for (int i = 0; i < 5; i++) {
        if (crash_signals[i] == signo) { sigaction(signo, &previous_crash_actions[i], NULL); break; }
    }
    raise(signo);
}

void cncurses_install_crash_handlers(void) {
    if (crash_installed) return;
    crash_installed = 1;
    for (int i = 0; i < 5; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = crash_handler;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_ONSTACK;
        sigaction(crash_signals[i], &sa, &previous_crash_actions[i]);
    }
}

void cncurses_uninstall_crash_handlers(void) {
    if (!crash_installed) return;
    crash_installed = 0;
    for (int i = 0; i < 5; i++) sigaction(crash_signals[i], &previous_crash_actions[i], NULL);
}
