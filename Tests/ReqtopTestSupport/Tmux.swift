import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong while driving tmux.
public enum TmuxError: Error, CustomStringConvertible {
    case notInstalled
    case commandFailed(arguments: [String], status: Int32, output: String)
    case timeout(waitingFor: String, seconds: Double, screen: String)

    public var description: String {
        switch self {
        case .notInstalled:
            return "tmux is not installed: install it (apt-get install tmux) to run the terminal end-to-end tests"
        case .commandFailed(let arguments, let status, let output):
            return "tmux \(arguments.joined(separator: " ")) exited \(status): \(output)"
        case .timeout(let what, let seconds, let screen):
            return "timed out after \(seconds)s waiting for \(what); the screen was:\n\(screen)"
        }
    }
}

/// Drives one tmux server on a private socket (`-L reqtop-<random>`, `-f /dev/null`) with one session.
///
/// Every wait polls `capture-pane` against a deadline; nothing sleeps for a fixed time to synchronise.
/// Call `kill()` in teardown (it is idempotent).
public final class Tmux: Sendable {
    /// The private socket name passed with `-L`.
    public let socket: String
    private let executable: String

    /// The path of `tmux` on `PATH`, or `nil`.
    public static var executablePath: String? { findExecutable(named: "tmux") }


    /// Starts a detached session of `width` × `height` running `arguments` (one argument: a shell
    /// command line; several: a program and its arguments, run without a shell).
    public init(arguments: [String], width: Int = 120, height: Int = 40) throws {
        guard let executable = Tmux.executablePath else { throw TmuxError.notInstalled }
        self.executable = executable
        socket = "reqtop-\(UUID().uuidString.prefix(8).lowercased())"
        try run(["new-session", "-d", "-s", "reqtop", "-x", "\(width)", "-y", "\(height)"] + arguments)
    }

    /// Runs `tmux -L socket -f /dev/null -u <arguments>` and returns its standard output.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(executable, ["-L", socket, "-f", "/dev/null", "-u"] + arguments, output: .file)
        guard result.status == 0, !result.terminatedBySignal else {
            throw TmuxError.commandFailed(arguments: arguments, status: result.status, output: result.stdoutText)
        }
        return result.stdoutText
    }

    /// Sends keys as tmux names them (`q`, `C-c`, `Up`, `Enter`).
    public func sendKeys(_ keys: String...) throws {
        try run(["send-keys", "-t", socketTarget] + keys)
    }

    /// Pastes `text` the way a terminal does: wrapped in bracketed-paste markers when the program
    /// asked for them (`paste-buffer -p`).
    public func paste(_ text: String) throws {
        try run(["set-buffer", "-b", "reqtop-paste", text])
        try run(["paste-buffer", "-p", "-d", "-b", "reqtop-paste", "-t", socketTarget])
    }

    /// The visible pane; with `escapes`, including SGR colour/attribute sequences.
    public func capture(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", socketTarget] + (escapes ? ["-e"] : []))
    }

    /// Resizes the window to `width` × `height`.
    public func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", socketTarget, "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format evaluated for the pane, e.g. `#{alternate_on}` or `#{cursor_flag}`.
    public func display(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", socketTarget, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until it contains `text`; returns that screen.
    @discardableResult
    public func waitFor(text: String, timeout: TimeInterval = 10) throws -> String {
        try waitUntil("\"\(text)\" on screen", timeout: timeout) { $0.contains(text) }
    }

    /// Polls the screen (every 20 ms, up to `timeout`) until `condition` holds; returns that screen.
    @discardableResult
    public func waitUntil(_ what: String, timeout: TimeInterval = 10, escapes: Bool = false,
                          _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while true {
            screen = try capture(escapes: escapes)
            if condition(screen) { return screen }
            if Date() > deadline { throw TmuxError.timeout(waitingFor: what, seconds: timeout, screen: screen) }
            usleep(20_000) // poll interval, not synchronisation: the deadline bounds the wait
        }
    }

    /// Polls a tmux format until it evaluates to `value`.
    public func waitFor(format: String, toBe value: String, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try display(format) != value {
            if Date() > deadline {
                throw TmuxError.timeout(waitingFor: "\(format) == \(value)", seconds: timeout, screen: (try? capture()) ?? "")
            }
            usleep(20_000)
        }
    }

    /// Stops the server and everything running in it. Safe to call more than once.
    public func kill() {
        _ = try? run(["kill-server"])
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }

    private var socketTarget: String { "reqtop" }
}
