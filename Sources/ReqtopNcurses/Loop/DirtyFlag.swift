import CNcursesw
import ReqtopSync

/// Wakes the event loop to redraw; callable from any thread.
///
/// Calls made before the loop draws again are coalesced into one wake-up byte on the self-pipe.
package final class DirtyFlag: Sendable {
    private let pending = Protected(false)

    init() {
        _ = cncurses_signal_pipe_read_fd()
    }

    /// Asks for a redraw at the loop's next frame slot.
    package func markDirty() {
        let shouldWake = pending.withLock { flag -> Bool in
            if flag { return false }
            flag = true
            return true
        }
        if shouldWake { cncurses_signal_pipe_wake() }
    }

    /// Called by the loop before it renders: later calls wake it again.
    func clear() { pending.withLock { $0 = false } }
}
