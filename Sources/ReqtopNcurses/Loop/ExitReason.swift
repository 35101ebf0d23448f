/// Why `EventLoop.run` returned. The terminal has been restored in every case.
package enum ExitReason: Hashable, Sendable {
    /// A key handler returned `.quit`.
    case quit
    /// SIGINT, SIGTERM or SIGHUP ended the loop.
    case signal(Int32)
    /// Standard input closed or failed (the terminal went away).
    case inputClosed
    /// Curses could not start (message says why).
    case startFailed(String)

    /// The conventional process exit status: 0 for quit, 128 + signal number (130 for SIGINT), 1 otherwise.
    package var exitCode: Int32 {
        switch self {
        case .quit: return 0
        case .signal(let signo): return 128 + signo
        case .inputClosed, .startFailed: return 1
        }
    }
}
