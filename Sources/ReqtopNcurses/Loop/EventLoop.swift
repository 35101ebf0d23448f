#if canImport(Glibc)
import Glibc
#endif
import CNcursesw
import Dispatch
import ReqtopTerminalUI

/// The terminal's main loop: polls stdin and the signal self-pipe, decodes keys, and draws coalesced frames.
///
/// Create it and call `run` on one thread. Other threads change their model and call
/// `dirtyFlag.markDirty()`; frames are drawn at most `maxFramesPerSecond` times a second.
/// SIGWINCH resizes and repaints; SIGINT, SIGTERM and SIGHUP end the loop (see `ExitReason.exitCode`);
/// crash signals restore the tty before the previous handler runs. The terminal is restored on every exit path.
package final class EventLoop {
    /// Hand this to background work: `markDirty()` wakes the loop from any thread.
    package let dirtyFlag = DirtyFlag()
    package let maxFramesPerSecond: Int
    private let colors: Bool
    private let mouse: Bool
    private var input = InputDecoder()

    /// - Parameters:
    ///   - maxFramesPerSecond: the redraw rate limit (default `FrameRate.defaultFramesPerSecond`).
    ///   - colors: draw colours; by default true unless `NO_COLOR` is set.
    ///   - mouse: report clicks and the wheel as `.mouse` keys (the terminal's own selection then needs Shift).
    package init(maxFramesPerSecond: Int = FrameRate.defaultFramesPerSecond, colors: Bool? = nil, mouse: Bool = true) {
        self.maxFramesPerSecond = max(1, maxFramesPerSecond)
        self.colors = colors ?? TerminalSession.colorsAllowed
        self.mouse = mouse
    }

    /// Asks for a redraw (from any thread; same as `dirtyFlag.markDirty()`).
    package func markDirty() { dirtyFlag.markDirty() }

    /// Set when `runProgram` gave the terminal away; the loop repaints after the key handler returns.
    private var handedOver = false

    /// Hands the terminal to another program (an editor, a pager) until it exits, then takes it back.
    /// Call it from a key handler. Returns the program's exit status (127 when it could not start).
    package func runProgram(_ arguments: [String]) -> Int32 {
        TerminalSession.end()
        defer {
            _ = TerminalSession.start(colors: colors, mouse: mouse) // it worked before the program ran
            handedOver = true
        }
        return ExternalProgram.run(arguments)
    }

    /// Writes `sequence` to the terminal as it is, outside the screen model: for control sequences
    /// that draw nothing (OSC 52 clipboard). Call it from a key handler.
    package func sendToTerminal(_ sequence: String) {
        var bytes = Array(sequence.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + written, $0.count - written) }
            if n <= 0 { break }
            written += n
        }
    }

    /// Runs until a key handler quits, an exit signal arrives or stdin closes; returns why.
    /// - Parameters:
    ///   - onKey: called for each key; `.resize` is also reported after a size change.
    ///   - onSignal: called for SIGINT/SIGTERM/SIGHUP; `.quit` (the default) ends the loop with `.signal`.
    ///   - render: draws one frame; called only when something marked the screen dirty.
    package func run(
        onKey: (Key) -> LoopAction,
        onSignal: (Int32) -> LoopAction = { _ in .quit },
        render: (inout Frame) -> Void
    ) -> ExitReason {
        let pipeFD = cncurses_signal_pipe_read_fd()
        guard pipeFD >= 0 else { return .startFailed("could not create the signal pipe: \(String(cString: strerror(errno)))") }
        if let failure = TerminalSession.start(colors: colors, mouse: mouse) { return .startFailed(failure) }
        defer { TerminalSession.end() }
        let terminal = Terminal(backend: NcursesBackend(colors: colors))
        let frameInterval = UInt64(1_000_000_000 / maxFramesPerSecond)
        var dirty = true
        var lastFrame: UInt64 = 0

        while true {
            var timeout: Int32 = -1
            if dirty {
                let now = DispatchTime.now().uptimeNanoseconds
                if lastFrame == 0 || now - lastFrame >= frameInterval {
                    dirtyFlag.clear()
                    terminal.draw(render)
                    lastFrame = DispatchTime.now().uptimeNanoseconds
                    dirty = false
                } else {
                    timeout = Int32((frameInterval - (now - lastFrame)) / 1_000_000) + 1
                }
            }
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .inputClosed
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for byte in drain(pipeFD) {
                    switch Int32(byte) {
                    case 0: dirty = true
                    case SIGWINCH:
                        cncurses_resize_from_tty()
                        terminal.invalidate()
                        dirty = true
                        if onKey(.resize) == .quit { return .quit }
                    case let signo where TerminalSession.exitSignals.contains(signo):
                        switch onSignal(signo) {
                        case .quit: return .signal(signo)
                        case .redraw: dirty = true
                        case .ignore: break
                        }
                    default: break
                    }
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                for key in input.readPending() {
                    if key == .resize { terminal.invalidate() }
                    let action = onKey(key)
                    if handedOver {
                        // A program had the terminal: repaint everything.
                        handedOver = false
                        terminal.invalidate()
                        dirty = true
                    }
                    switch action {
                    case .quit: return .quit
                    case .redraw: dirty = true
                    case .ignore: if key == .resize { dirty = true }
                    }
                }
            }
            // The terminal is gone (its window closed, its tmux session killed, ssh dropped). A hung-up
            // terminal also reports POLLIN, with nothing to read: without this the loop spun at full CPU
            // when no SIGHUP came (`make demo` in a window closed under make, which gets the SIGHUP alone).
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return .inputClosed
            }
        }
    }

    /// Reads everything waiting in the non-blocking pipe.
    private func drain(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
