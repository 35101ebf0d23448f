#if canImport(Glibc)
import Glibc
#endif
import CNcursesw

/// Starts curses and the signal routing, and undoes both exactly once.
struct TerminalSession {
    /// Signals that end the loop cleanly.
    static let exitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let routedSignals: [Int32] = exitSignals + [SIGWINCH]

    /// True unless `NO_COLOR` is set to a non-empty value.
    static var colorsAllowed: Bool {
        guard let value = getenv("NO_COLOR") else { return true }
        return value.pointee == 0
    }

    /// Enters curses (alternate screen, hidden cursor) with signals routed to the self-pipe.
    /// - Returns: `nil`, or why the terminal cannot be used.
    static func start(colors: Bool, mouse: Bool) -> String? {
        cncurses_install_atexit()
        cncurses_install_crash_handlers()
        if cncurses_start(colors ? 1 : 0, mouse ? 1 : 0) < 0 {
            cncurses_uninstall_crash_handlers()
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            return "cannot use the terminal (TERM=\(term)): run reqtop in a terminal with a known TERM, or use --headless"
        }
        for signo in routedSignals { _ = cncurses_signal_route(signo) }
        return nil
    }

    /// Leaves curses and restores the tty and signal dispositions. Safe to call more than once.
    static func end() {
        cncurses_end()
        for signo in routedSignals { cncurses_signal_unroute(signo) }
        cncurses_uninstall_crash_handlers()
    }
}
